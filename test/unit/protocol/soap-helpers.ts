// Helpers of the SOAP codec tests (soap.test.ts, soap-refusals.test.ts).
import { expect } from 'vitest';
import { SoapBuildError, SoapParseError } from '../../../protocol/soap/errors.ts';
import { SOAP_ENV_NAMESPACE, SOAP_TYPES_NAMESPACE } from '../../../protocol/soap/namespaces.ts';
export const ENV = SOAP_ENV_NAMESPACE;
export const T = SOAP_TYPES_NAMESPACE;

/** A hand-written SOAP 1.1 request, as other SOAP stacks write them. */
export function envelope(body: string, head = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="${ENV}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  ${head}
  <soapenv:Body>
    ${body}
  </soapenv:Body>
</soapenv:Envelope>`;
}

export function parseError(fn: () => unknown): SoapParseError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SoapParseError);
    return error as SoapParseError;
  }
  throw new Error('expected a SoapParseError, nothing was thrown');
}

export function buildError(fn: () => unknown): SoapBuildError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SoapBuildError);
    return error as SoapBuildError;
  }
  throw new Error('expected a SoapBuildError, nothing was thrown');
}
