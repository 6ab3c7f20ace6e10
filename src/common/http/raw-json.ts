/**
 * A response body that is JSON already (built by the database), encoded once as UTF-8. It is
 * sent as is: a 280 KB page is never parsed and re-serialised.
 */
export class RawJson {
  constructor(readonly body: Buffer) {}
}
