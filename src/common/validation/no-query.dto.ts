/** For routes that take no query parameters: any parameter is refused, as on the list. */
export class NoQueryDto {}
