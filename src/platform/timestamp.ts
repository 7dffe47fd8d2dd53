import { Type } from 'typebox'

/** A timestamp in JSON: ISO 8601 UTC with milliseconds. */
export const Timestamp = Type.String({ format: 'date-time', example: '2026-11-22T10:15:30.123Z' })
