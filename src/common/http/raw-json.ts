/**
 * A response body that is JSON text already (built by the database). The RawJsonInterceptor sends
 * it as is, so a 250 KB page is not parsed and re-serialised on its way out.
 */
export class RawJson {
  constructor(readonly text: string) {}
}
