// Errors of the SOAP codec. A server answers SoapParseError and SoapBuildError of a request with a
// soap:Client fault; a client gets SoapFaultError when the peer answered with a fault.

/** The XML could not be read as a SOAP message of the interface (malformed, refused, or not schema-valid). */
export class SoapParseError extends Error {
  /** element path inside the body where the problem is, e.g. "SubmitMessage/Recipient/MCC" */
  readonly path: string | undefined;
  /** 1-based position in the document, when the XML itself is malformed */
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(message: string, where: { path?: string; line?: number; column?: number } = {}) {
    super(where.path === undefined ? message : `${where.path}: ${message}`);
    this.name = 'SoapParseError';
    this.path = where.path;
    this.line = where.line;
    this.column = where.column;
  }
}

/** A value cannot be written as the schema type of its element (e.g. a non-hex FileData1). */
export class SoapBuildError extends Error {
  readonly path: string;

  constructor(message: string, path: string) {
    super(`${path}: ${message}`);
    this.name = 'SoapBuildError';
    this.path = path;
  }
}

/** The peer answered with a SOAP Fault. */
export class SoapFaultError extends Error {
  /** the faultcode as sent, e.g. "soap:Client" (SOAP 1.2: the Code/Value text) */
  readonly faultcode: string;
  /** local part of faultcode: "Client", "Server", "VersionMismatch", ... (SOAP 1.2 "Sender" reads as "Client", "Receiver" as "Server") */
  readonly code: string;
  readonly faultstring: string;
  readonly faultactor: string | undefined;
  /** text content of <detail>, if any */
  readonly detail: string | undefined;
  /**
   * The report code (spec 7.1) the fault carries in its detail (issue 24): a <Report> element in it,
   * as other gateways write (<detail><Report>2</Report></detail>), or the detail's whole text when it
   * is a number, as the reference gateway writes (<detail>2</detail>).
   */
  readonly report: string | undefined;

  constructor(fault: {
    faultcode: string;
    faultstring: string;
    faultactor?: string;
    detail?: string;
    report?: string;
  }) {
    super(`SOAP fault ${fault.faultcode}: ${fault.faultstring}`);
    this.name = 'SoapFaultError';
    this.faultcode = fault.faultcode;
    const local = fault.faultcode.slice(fault.faultcode.indexOf(':') + 1);
    this.code = local === 'Sender' ? 'Client' : local === 'Receiver' ? 'Server' : local;
    this.faultstring = fault.faultstring;
    this.faultactor = fault.faultactor;
    this.detail = fault.detail;
    this.report = fault.report;
  }
}
