// Types for the parts of untyped CommonJS packages the local runtime uses (negotiator 1.x: @types/negotiator describes 0.6, without `preferred`).
declare module 'netlify-redirector' {
  interface RedirectRule {
    to?: string;
    status?: number;
    force?: boolean;
    force404?: boolean;
  }
  interface Matcher {
    match(request: object): RedirectRule | null;
  }
  const redirector: { parseJSON(rules: string, options: { jwtSecret: string; jwtRoleClaim: string }): Promise<Matcher> };
  export default redirector;
}

declare module 'mime-types' {
  const mime: { contentType(extensionOrType: string): string | false };
  export default mime;
}

declare module 'negotiator' {
  class Negotiator {
    constructor(request: { headers: Record<string, string> });
    /** The best of `available` for the request's Accept-Encoding; ties go to the first of `preferred`. */
    encoding(available: string[], options?: { preferred?: string[] }): string | undefined;
  }
  export default Negotiator;
}
