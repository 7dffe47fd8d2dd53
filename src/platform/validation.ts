import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { AppError, type FieldError } from './errors.js'

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
type AddFormats = (ajv: Ajv) => Ajv
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats)

/** Schema annotations the validator tolerates (used for clearer messages and OpenAPI). */
const ANNOTATIONS = ['x-kind', 'example']

function createAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    // Bodies are never coerced: "12.5" and 12.5 are different things for money.
    coerceTypes: coerce ? true : false,
    useDefaults: true,
    removeAdditional: false,
    verbose: true,
    strict: false,
  })
  addFormats(ajv)
  ajv.addVocabulary(ANNOTATIONS)
  return ajv
}

const bodyAjv = createAjv(false)
const queryAjv = createAjv(true)

export function compileValidator(schema: object, httpPart: string | undefined): ValidateFunction {
  return (httpPart === 'body' ? bodyAjv : queryAjv).compile(schema)
}

function paramName(error: ErrorObject): string {
  const base = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.')
  const child =
    error.keyword === 'required'
      ? String(error.params.missingProperty)
      : error.keyword === 'additionalProperties'
        ? String(error.params.additionalProperty)
        : ''
  return [base, child].filter(Boolean).join('.') || '(body)'
}

function describe(error: ErrorObject, param: string): FieldError {
  const schema = (error.parentSchema ?? {}) as Record<string, unknown>
  switch (error.keyword) {
    case 'required':
      return { param, code: 'missing', message: `${param} is required` }
    case 'additionalProperties':
      return { param, code: 'unknown', message: `${param} is not a known parameter` }
    case 'type':
      if (schema['x-kind'] === 'decimal' && typeof error.data === 'number') {
        return {
          param,
          code: 'invalid_type',
          message: `${param} must be a decimal string such as "12.50", not a JSON number`,
        }
      }
      return { param, code: 'invalid_type', message: `${param} ${error.message ?? 'has the wrong type'}` }
    case 'pattern':
      if (schema['x-kind'] === 'decimal') {
        return { param, code: 'invalid_format', message: `${param} must be a decimal string such as "12.50"` }
      }
      return { param, code: 'invalid_format', message: `${param} has an invalid format` }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return { param, code: 'out_of_range', message: `${param} ${error.message ?? 'is out of range'}` }
    case 'enum':
      return {
        param,
        code: 'invalid_value',
        message: `${param} must be one of ${((error.params.allowedValues as unknown[]) ?? []).join(', ')}`,
      }
    default:
      return { param, code: 'invalid', message: `${param} ${error.message ?? 'is invalid'}` }
  }
}

/** Turns schema validation failures into one problem with every field listed. */
export function validationError(errors: ErrorObject[], part: string): AppError {
  // anyOf/oneOf report their branches too; the branch errors are the useful ones.
  const useful = errors.filter(
    (error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf' && error.keyword !== 'if',
  )
  const fields = (useful.length ? useful : errors).map((error) => describe(error, paramName(error)))
  const unique = fields.filter((field, index) => fields.findIndex((other) => other.param === field.param) === index)
  const first = unique[0] ?? { param: part, code: 'invalid', message: `${part} is invalid` }
  const code =
    first.code === 'missing'
      ? 'parameter_missing'
      : first.code === 'unknown'
        ? 'parameter_unknown'
        : 'parameter_invalid'
  return new AppError(code, first.message ?? 'invalid parameter', { param: first.param, errors: unique })
}
