/** Hits the header's search palette lists (the search page lists them all, with filters). */
export const PALETTE_RESULT_LIMIT = 8;
