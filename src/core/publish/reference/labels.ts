/**
 * The English words of the API reference that its HTML pages and its markdown twins share: the twin
 * says what the page says, in the same order (AFDocs markdown-content-parity compares the two), so
 * the words live once, here; the components' strings (src/components/api-reference/strings.ts) take them.
 * @module
 */
export const REFERENCE_LABELS = {
  authentication: 'Authentication',
  noAuth: 'None: public, no key needed.',
  required: 'required',
  example: 'Example',
  requestBody: 'Request body',
  responses: 'Responses',
  headers: 'Headers',
  body: 'Body',
  bodyIsPage: 'An HTML page for people.',
  noBody: 'No body.',
  oneOf: 'One of',
  itemsAre: 'Each item',
  queryParameters: 'Query parameters',
  headerParameters: 'Header parameters',
  pathParameters: 'Path parameters',
  cookieParameters: 'Cookie parameters',
  exampleRequest: 'Request',
  exampleResponse: 'Response',
  sameSchema: 'Schema as for',
  version: 'Version',
  server: 'Server',
  openApi: 'OpenAPI 3.1 document',
  markdown: 'Markdown version',
  onePage: 'All on one page',
  overview: 'Overview',
  developersHub: 'All developer resources',
  discovery: 'Discovery for agents',
  tryIt: 'Try it',
  tryItLead: 'Sends the request from your browser to this site and shows the answer.',
  send: 'Send request',
} as const;
