/**
 * `list_products`: the product line.
 * @module
 */
import * as v from 'valibot';
import { absoluteUrl } from '../kernel/paths.ts';
import { linkTo, markdownLink } from './reading.ts';
import { defineTool } from './tool.ts';

export const ListProductsInput = v.strictObject({});

export const ListProductsOutput = v.object({
  products: v.array(
    v.object({
      slug: v.string(),
      name: v.string(),
      summary: v.string(),
      features: v.array(v.string()),
      url: v.string(),
    }),
  ),
});

export const listProducts = defineTool({
  name: 'list_products',
  title: 'List products',
  description: 'The product line in display order: name, one-paragraph summary, key features and the product page URL. Takes no arguments.',
  input: ListProductsInput,
  output: ListProductsOutput,
  run(_args, { site, origin }) {
    const products = [...site.products]
      .sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug))
      .map((p) => ({ slug: p.slug, name: p.name, summary: p.summary, features: p.features, url: absoluteUrl(origin, p.path) }));
    return { ok: true, data: { products } };
  },
  read({ products }, { origin }) {
    const links = products.map((p) => linkTo(p.name, p.url, origin));
    return { text: products.map((p, i) => `- ${markdownLink(links[i]!)}: ${p.summary}`).join('\n'), links };
  },
});
