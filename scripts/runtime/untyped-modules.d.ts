// Types for the parts of two untyped CommonJS packages the local runtime uses.
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
