/**
 * The sentences of the site that name its subject matter (the blog's leads, the search page's description and the
 * search box's example, the contact page's lead, the listings' descriptions, the glossary's, the feed's name): from
 * the `copy` block of content/company.yaml, each with a neutral sentence when it is left out, so a fork that edits
 * content/ says nothing about topics it never wrote about. The interface words around them stay in i18n.ts.
 * @module
 */
import type { Company, CompanyCopy, Lang } from './catalog.ts';

/** The subject-matter sentences of one language, resolved. */
export interface SiteCopy {
  /** The lead of the listing of both languages. */
  blogLead: string;
  /** The lead of the listing of the page's language only. */
  blogLangLead: string;
  /** The description of page `page` of `total` of the listing of both languages. */
  blogAllDescription: (page: number, total: number) => string;
  searchDescription: string;
  /** The search box's placeholder ("e.g. …"), none when company.yaml gives no example. */
  searchPlaceholder: string | undefined;
  contactLead: string;
  contactDescription: string;
  /** The products listing's description, naming the products. */
  productsDescription: (productNames: readonly string[]) => string;
  solutionsLead: string;
  /** The description of the solutions listing (English; the Chinese listing's is its lead). */
  solutionsDescription: string;
  glossaryDescription: string;
  /** The feed's name as a sentence may use it ("read the …"). */
  feedName: string;
}

/** The name of the feed at /api/tweets (company.yaml `copy.feed_name`), as a sentence uses it: "read the …". */
export function feedNameOf(company: { copy?: CompanyCopy | undefined }, lang: Lang): string {
  return lang === 'zh' ? (company.copy?.feed_name_zh ?? '动态') : (company.copy?.feed_name ?? 'news feed');
}

type CopyCompany = Pick<Company, 'name' | 'name_zh' | 'tagline' | 'tagline_zh'> & { copy?: CompanyCopy | undefined };

/** The sentences of `lang`: company.yaml's where it has them, neutral ones where not. */
export function siteCopy(company: CopyCompany, lang: Lang): SiteCopy {
  const copy = company.copy ?? {};
  if (lang === 'zh') {
    const name = company.name_zh;
    const blogLead =
      copy.blog_lead_zh ?? `${name}发布的中文与英文文章，按发布时间由新到旧排列，可按分类、标签与语言浏览，每篇文章也提供 Markdown 版本。`;
    const solutionsLeadZh =
      copy.solutions_lead_zh ??
      `基于${name}产品的行业解决方案：每个方案说明客户的场景、采用的架构、实施步骤与取得的业务成效，并列出所用产品。`;
    const contactLead =
      copy.contact_lead_zh ?? '告诉我们您的需求与时间计划，我们会尽快回复；也可以通过本页列出的邮件、电话等渠道直接联系我们。';
    return {
      blogLead,
      blogLangLead:
        copy.blog_lang_lead_zh ?? `${name}发布的全部中文文章，按发布时间由新到旧排列，可按分类与标签浏览，每篇文章也提供 Markdown 版本。`,
      blogAllDescription: (page, total) => `${blogLead}中文文章在前，英文文章标有语言（第 ${page}/${total} 页）。`,
      searchDescription:
        copy.search_description_zh ??
        `搜索${name}的全部文章与解决方案，中英文均可；结果按相关度排序，可按语言与主题筛选，也可通过 API 查询。`,
      searchPlaceholder: copy.search_example_zh === undefined ? undefined : `例如：${copy.search_example_zh}`,
      contactLead,
      contactDescription: `联系${name}：联系方式与留言表单。${contactLead}`,
      productsDescription: (names) =>
        `${copy.products_description_zh ?? `${name}的产品，每个产品附功能列表与应用案例`}：${names.join('、')}。${company.tagline_zh ?? company.tagline}`,
      solutionsLead: solutionsLeadZh,
      solutionsDescription: solutionsLeadZh,
      glossaryDescription:
        copy.glossary_description_zh ??
        `${name}的文章、解决方案与产品中常用术语的简明定义，每个术语都有中英文名称与一两句解释，可按锚点直接链接。`,
      feedName: feedNameOf(company, 'zh'),
    };
  }
  const name = company.name;
  const blogLead = copy.blog_lead ?? `Articles from ${name} in Chinese and English, newest first, to browse by category, tag and language.`;
  const contactLead = copy.contact_lead ?? 'Tell us what you need and we will get back to you.';
  const allDescription = copy.blog_all_description ?? `Articles from ${name} in Chinese and English, newest first.`;
  return {
    blogLead,
    blogLangLead: copy.blog_lang_lead ?? `Articles from ${name} in English, newest first, to browse by category and tag.`,
    blogAllDescription: (page, total) => `${allDescription.replace(/\.$/, '')} (page ${page} of ${total}).`,
    searchDescription: copy.search_description ?? `Search ${name} articles and solutions in Chinese or English.`,
    searchPlaceholder: copy.search_example === undefined ? undefined : `e.g. ${copy.search_example}`,
    contactLead,
    // The channels a company has are content (company.yaml `contact`): the default names none of them (recheck N8).
    contactDescription: copy.contact_description ?? `Contact ${name}: its contact channels and a form. ${contactLead}`,
    productsDescription: (names) =>
      `${copy.products_description ?? `${name} products, each with its features and where it is used`}: ${names.join(', ')}.`,
    solutionsLead: copy.solutions_lead ?? `Industry solutions built on ${name} products, with the architecture and the results.`,
    solutionsDescription:
      copy.solutions_description ?? `Industry solutions built on ${name} products, with the architecture and the results.`,
    glossaryDescription:
      copy.glossary_description ?? `The terms used in ${name}'s articles, solutions and products, each defined in a sentence or two.`,
    feedName: feedNameOf(company, 'en'),
  };
}
