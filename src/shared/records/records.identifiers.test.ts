import { describe, expect, it } from 'vitest'
import { COUNTRY_CODES, isCountry } from './records.countries.js'
import {
  gtin14,
  isTimezone,
  normaliseIpi,
  normaliseIsni,
  normaliseIsrc,
  normaliseIswc,
  normaliseUpc,
  territoriesProblem,
} from './records.identifiers.js'

describe('ISRC', () => {
  it('normalises hyphenated and lower-case forms to 12 upper-case chars', () => {
    expect(normaliseIsrc('USRC17607839')).toBe('USRC17607839')
    expect(normaliseIsrc('us-rc1-76-07839')).toBe('USRC17607839')
    expect(normaliseIsrc('GB-AYE-03-00021')).toBe('GBAYE0300021')
    expect(normaliseIsrc('QZ ES8 23 00001')).toBe('QZES82300001')
  })

  it('refuses wrong lengths and characters in the wrong place', () => {
    for (const bad of [
      'USRC1760783',
      'USRC176078390',
      'U1RC17607839',
      'USRC1A607839',
      'USRC176O7839',
      'US_RC17607839',
      '',
    ]) {
      expect(normaliseIsrc(bad), bad).toBeNull()
    }
  })
})

describe('ISWC', () => {
  it('validates the check digit and normalises to T-DDD.DDD.DDD-C', () => {
    expect(normaliseIswc('T-034.524.680-1')).toBe('T-034.524.680-1')
    expect(normaliseIswc('T0345246801')).toBe('T-034.524.680-1')
    expect(normaliseIswc('t 034 524 680 1')).toBe('T-034.524.680-1')
  })

  it('refuses a wrong check digit or shape', () => {
    for (const bad of ['T-034.524.680-2', 'T-034.524.68-1', 'X-034.524.680-1', '0345246801', 'T-034.524.680-X']) {
      expect(normaliseIswc(bad), bad).toBeNull()
    }
  })
})

describe('UPC / EAN / GTIN', () => {
  it('accepts valid UPC-A, EAN-13 and GTIN-14 codes', () => {
    expect(normaliseUpc('036000291452')).toBe('036000291452')
    expect(normaliseUpc('4006381333931')).toBe('4006381333931')
    expect(normaliseUpc('5901234123457')).toBe('5901234123457')
    expect(normaliseUpc('00012345600012')).toBe('00012345600012')
    expect(gtin14('036000291452')).toBe('00036000291452')
  })

  it('refuses a wrong check digit or length', () => {
    for (const bad of ['036000291453', '4006381333932', '12345678', '123456789012345', '03600029145A']) {
      expect(normaliseUpc(bad), bad).toBeNull()
    }
  })
})

describe('IPI and ISNI', () => {
  it('accepts IPI numbers of 9 or 11 digits only', () => {
    expect(normaliseIpi('00052210040')).toBe('00052210040')
    expect(normaliseIpi('123456789')).toBe('123456789')
    for (const bad of ['1234567890', '12345678', 'I00052210040', '000522100401'])
      expect(normaliseIpi(bad), bad).toBeNull()
  })

  it('validates the ISO 7064 MOD 11-2 check character of an ISNI', () => {
    expect(normaliseIsni('0000 0001 2281 955X')).toBe('000000012281955X')
    expect(normaliseIsni('0000000121032683')).toBe('0000000121032683')
    expect(normaliseIsni('000000012281955x')).toBe('000000012281955X')
    for (const bad of ['0000000122819550', '0000000121032684', '000000012103268', 'X000000121032683']) {
      expect(normaliseIsni(bad), bad).toBeNull()
    }
  })
})

describe('territories and time zones', () => {
  it('knows the 249 ISO 3166-1 alpha-2 codes', () => {
    expect(COUNTRY_CODES.size).toBe(249)
    for (const code of ['DE', 'US', 'GB', 'JP', 'SS', 'AX']) expect(isCountry(code), code).toBe(true)
    for (const code of ['UK', 'EU', 'XK', 'ZZ', 'de', 'WORLD']) expect(isCountry(code), code).toBe(false)
  })

  it('accepts alpha-2 lists or WORLD alone', () => {
    expect(territoriesProblem(['WORLD'])).toBeNull()
    expect(territoriesProblem(['DE', 'AT', 'CH'])).toBeNull()
    expect(territoriesProblem(['WORLD', 'DE'])).toMatch(/WORLD/)
    expect(territoriesProblem(['UK'])).toMatch(/UK/)
    expect(territoriesProblem(['DE', 'DE'])).toMatch(/duplicates/)
    expect(territoriesProblem([])).toMatch(/at least one/)
  })

  it('knows IANA zones and UTC', () => {
    expect(isTimezone('Europe/Berlin')).toBe(true)
    expect(isTimezone('America/New_York')).toBe(true)
    expect(isTimezone('UTC')).toBe(true)
    expect(isTimezone('Mars/Olympus_Mons')).toBe(false)
    expect(isTimezone('europe/berlin')).toBe(false)
  })
})
