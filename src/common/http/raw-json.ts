/**
 * A response body that is JSON already (built by the database), held as UTF-8 bytes and sent as
 * is: a list page is never parsed and re-serialised. A string is encoded here, once.
 */
export class RawJson {
  readonly body: Buffer;

  constructor(json: string | Buffer) {
    this.body = typeof json === 'string' ? Buffer.from(json) : json;
  }
}
