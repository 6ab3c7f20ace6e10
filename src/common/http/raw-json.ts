/**
 * A response body that is JSON already, as UTF-8 bytes (built by the database). It is sent as is:
 * a 280 KB page is neither parsed and re-serialised nor converted from UTF-8 to a JavaScript
 * string and back.
 */
export class RawJson {
  constructor(readonly body: Buffer) {}
}
