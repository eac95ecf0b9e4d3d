/**
 * The tools of the MCP server, in `tools/list` order (deterministic: conformance checks it).
 * @module
 */
import { exportArticleIndex } from './export-article-index.ts';
import { getArticle } from './get-article.ts';
import { getCompanyInfo } from './get-company-info.ts';
import { listProducts } from './list-products.ts';
import { searchArticles } from './search-articles.ts';
import { submitFeedback } from './submit-feedback.ts';
import type { Tool } from './tool.ts';

export const TOOLS: readonly Tool[] = [searchArticles, getArticle, listProducts, getCompanyInfo, exportArticleIndex, submitFeedback];

/** Finds a tool by exact name. */
export function findTool(name: string): Tool | undefined {
  return TOOLS.find((tool) => tool.name === name);
}
