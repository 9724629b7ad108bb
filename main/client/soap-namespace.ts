// Which SOAP namespaces a gateway speaks (issue 16): read from the gateway's own WSDL, first
// {url}/sendsms5?wsdl, then {url}/dtd/sendsms5.wsdl (where the provider publishes it); when neither
// can be read, the provider's published values. A setting or the deploy policy may pin a types
// namespace instead (GatewayClientOptions.soapTypesNamespace), and then nothing is read.
import {
  PROVIDER_WSDL_PATH,
  SENDSMS5_PROFILE,
  SOAP_PATHS,
  type SoapProfile,
} from '../../protocol/soap/namespaces.ts';
import { readWsdlProfile } from '../../protocol/soap/wsdl-read.ts';
import type { TransportResult } from './transport.ts';

/** Where the namespaces in use came from, for the Account view and the CLI. */
export type SoapNamespaceSource = 'wsdl' | 'provider' | 'pinned';

export interface SoapNamespaceInUse {
  profile: SoapProfile;
  source: SoapNamespaceSource;
  /** The WSDL read (source wsdl), or why none could be (source provider). */
  detail: string;
}

/** The WSDL addresses tried, in order, below the base URL. */
export const WSDL_PATHS = [`${SOAP_PATHS.sendsms5}?wsdl`, PROVIDER_WSDL_PATH] as const;

export async function learnSoapNamespace(
  get: (path: string, signal?: AbortSignal) => Promise<TransportResult>,
  signal?: AbortSignal,
): Promise<SoapNamespaceInUse> {
  const why: string[] = [];
  for (const path of WSDL_PATHS) {
    const res = await get(path, signal);
    if (res.kind !== 'response') {
      why.push(`${path}: ${res.reason}`);
      continue;
    }
    if (res.status !== 200) {
      why.push(`${path}: HTTP ${res.status}`);
      continue;
    }
    try {
      return { profile: readWsdlProfile(res.body), source: 'wsdl', detail: path };
    } catch (err) {
      why.push(`${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { profile: SENDSMS5_PROFILE, source: 'provider', detail: why.join('; ') };
}

/** A SOAP fault that says the body element is in the wrong namespace (then the WSDL is read again). */
export function isNamespaceFault(faultstring: string): boolean {
  return /namespace/i.test(faultstring);
}

/**
 * The namespaces one client speaks: pinned at construction, else learned on its first SOAP call
 * (callers at the same time share one reading) and read again after a fault about the namespace.
 */
export class SoapNamespaces {
  #inUse: SoapNamespaceInUse | undefined;
  #learning: Promise<SoapNamespaceInUse> | undefined;
  readonly #get: (path: string, signal?: AbortSignal) => Promise<TransportResult>;

  constructor(get: (path: string, signal?: AbortSignal) => Promise<TransportResult>, pinned?: SoapProfile) {
    this.#get = get;
    if (pinned !== undefined)
      this.#inUse = { profile: pinned, source: 'pinned', detail: 'set by a setting or the deploy policy' };
  }

  /** The namespaces in use, read from the gateway's WSDL when none are known yet. */
  async inUse(signal?: AbortSignal): Promise<SoapNamespaceInUse> {
    if (this.#inUse !== undefined) return this.#inUse;
    this.#learning ??= learnSoapNamespace(this.#get, signal).then(
      (learned) => {
        this.#inUse = learned;
        this.#learning = undefined;
        return learned;
      },
      (err: unknown) => {
        this.#learning = undefined;
        throw err;
      },
    );
    return this.#learning;
  }

  /** After a SOAP fault of a call made with `used`: a namespace fault makes the next call read the WSDL again (this one is not repeated). */
  faulted(used: SoapNamespaceInUse, faultstring: string): void {
    if (used.source !== 'pinned' && isNamespaceFault(faultstring) && this.#inUse === used)
      this.#inUse = undefined;
  }
}
