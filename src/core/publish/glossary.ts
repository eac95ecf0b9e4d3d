/**
 * The glossary: the terms the articles, solutions and products use, defined once in each language,
 * for readers new to the field and for agents that resolve a term before they answer (the Agent
 * Readability Spec asks every page to link one; the footer does). One list renders the page
 * (src/components/GlossaryPage.astro) and its markdown twin, so both carry the same definitions.
 * @module
 */
import type { Lang } from '../content/catalog.ts';

/** One term: its name in each language (the anchor is `id`) and its definition. */
export interface GlossaryTerm {
  /** The fragment of the term on the page (`/glossary#rag`), the same in both languages. */
  id: string;
  term: Record<Lang, string>;
  definition: Record<Lang, string>;
}

/** Every term, in alphabetical order of the English name. */
export const GLOSSARY: readonly GlossaryTerm[] = [
  {
    id: 'a2a',
    term: { en: 'A2A (Agent2Agent protocol)', zh: 'A2A（智能体间协议）' },
    definition: {
      en: 'An open protocol for one AI agent to ask another for work: the agent publishes an agent card describing its skills, and clients send it messages over JSON-RPC.',
      zh: '让一个 AI 智能体向另一个智能体委派任务的开放协议：智能体发布描述自身技能的 agent card，客户端通过 JSON-RPC 向它发送消息。',
    },
  },
  {
    id: 'ai-agent',
    term: { en: 'AI agent', zh: 'AI 智能体（Agent）' },
    definition: {
      en: 'A program in which a language model decides which steps to take and which tools to call to reach a goal, checking the results of each step before the next.',
      zh: '由大语言模型决定执行哪些步骤、调用哪些工具来完成目标的程序，每一步都会检查结果再决定下一步。',
    },
  },
  {
    id: 'aigc',
    term: { en: 'AIGC (AI-generated content)', zh: 'AIGC（生成式人工智能内容）' },
    definition: {
      en: 'Text, images, audio or video produced by generative models; in marketing it calls for brand review, compliance checks and labels that mark the content as generated.',
      zh: '由生成式模型产出的文本、图片、音频或视频；用于营销时需要品牌审核、合规检查，以及标明内容由 AI 生成的标识。',
    },
  },
  {
    id: 'embedding',
    term: { en: 'Embedding', zh: '向量嵌入（Embedding）' },
    definition: {
      en: 'A list of numbers a model computes for a piece of text so that texts with similar meaning lie close together; vector search compares embeddings instead of words.',
      zh: '模型为一段文本计算出的一组数字，语义相近的文本在向量空间中彼此接近；向量检索比较的是嵌入而不是字面词语。',
    },
  },
  {
    id: 'fine-tuning',
    term: { en: 'Fine-tuning and LoRA', zh: '微调与 LoRA' },
    definition: {
      en: 'Further training of a pretrained model on your own examples; LoRA trains small low-rank adapter matrices instead of every weight, so one base model can serve many adapters.',
      zh: '在预训练模型的基础上用自有样本继续训练；LoRA 只训练小型低秩适配矩阵而不改动全部权重，因此一个基座模型可以同时挂载多个适配器。',
    },
  },
  {
    id: 'kv-cache',
    term: { en: 'KV cache', zh: 'KV Cache（键值缓存）' },
    definition: {
      en: 'The attention keys and values a model keeps for the tokens it has already read, so each new token does not recompute them; it often takes more GPU memory than the weights.',
      zh: '模型为已读入的 Token 保存的注意力键和值，生成新 Token 时无需重新计算；它占用的显存常常超过模型权重本身。',
    },
  },
  {
    id: 'llm',
    term: { en: 'Large language model (LLM)', zh: '大语言模型（LLM）' },
    definition: {
      en: 'A neural network trained on large amounts of text to predict the next token; it answers, summarises, translates and writes code from a prompt.',
      zh: '在海量文本上训练、用于预测下一个 Token 的神经网络，可以根据提示词回答问题、总结、翻译和编写代码。',
    },
  },
  {
    id: 'llm-gateway',
    term: { en: 'LLM gateway', zh: '大模型网关' },
    definition: {
      en: 'A proxy between applications and model providers that routes requests, falls back between models, limits tokens per client, keeps budgets and records an audit trail.',
      zh: '位于应用与模型服务之间的代理，负责请求路由、模型间故障切换、按客户端限制 Token 用量、预算管理和审计留痕。',
    },
  },
  {
    id: 'llms-txt',
    term: { en: 'llms.txt and markdown twins', zh: 'llms.txt 与 Markdown 版本' },
    definition: {
      en: 'llms.txt is a markdown index of a site for language models; a markdown twin is the same page as markdown, at the page URL plus .md or when a request accepts text/markdown.',
      zh: 'llms.txt 是供语言模型阅读的站点 Markdown 索引；Markdown 版本是同一页面的 Markdown 形式，在页面地址后加 .md，或请求头接受 text/markdown 时返回。',
    },
  },
  {
    id: 'mcp',
    term: { en: 'MCP (Model Context Protocol)', zh: 'MCP（模型上下文协议）' },
    definition: {
      en: 'An open protocol through which AI applications discover and call tools and read resources on a server, over JSON-RPC; this site runs an MCP server at /mcp.',
      zh: 'AI 应用通过 JSON-RPC 发现并调用服务器上的工具、读取资源的开放协议；本站在 /mcp 提供 MCP 服务器。',
    },
  },
  {
    id: 'oauth',
    term: { en: 'OAuth 2.0 and PKCE', zh: 'OAuth 2.0 与 PKCE' },
    definition: {
      en: 'OAuth 2.0 lets a client obtain an access token with limited scopes instead of a password; PKCE binds an authorization code to the client that asked for it.',
      zh: 'OAuth 2.0 让客户端获取限定权限范围的访问令牌，而不是使用密码；PKCE 把授权码绑定到发起请求的客户端。',
    },
  },
  {
    id: 'on-premise',
    term: { en: 'On-premise (private) deployment', zh: '私有化部署' },
    definition: {
      en: 'Running models and their platform on hardware the organisation controls, in its own data centre or private cloud, so prompts and data never leave its network.',
      zh: '在企业自己掌控的硬件上运行模型及其平台，部署于自有机房或私有云，提示词与数据不出内网。',
    },
  },
  {
    id: 'prompt-injection',
    term: { en: 'Prompt injection', zh: '提示词注入' },
    definition: {
      en: 'An attack that hides instructions in content a model reads (a web page, an e-mail, a document) to make an agent act against its user; least privilege and human approval limit the harm.',
      zh: '把指令藏在模型会读取的内容（网页、邮件、文档）中，诱使智能体违背用户意图行事的攻击；最小权限和人工审批可以限制其危害。',
    },
  },
  {
    id: 'quantization',
    term: { en: 'Quantization', zh: '量化' },
    definition: {
      en: 'Storing model weights (and sometimes activations or the KV cache) in fewer bits, such as FP8 or INT4, to cut memory and cost at a small, measurable loss of quality.',
      zh: '用更少的比特（如 FP8、INT4）存储模型权重（有时也包括激活值或 KV Cache），以可度量的少量精度损失换取更低的显存占用和成本。',
    },
  },
  {
    id: 'rag',
    term: { en: 'RAG (retrieval-augmented generation)', zh: 'RAG（检索增强生成）' },
    definition: {
      en: 'Answering from documents retrieved for each question: the system searches a knowledge base, puts the best passages in the prompt and cites them in the answer.',
      zh: '针对每个问题先检索文档再作答：系统在知识库中搜索，把最相关的段落放入提示词，并在回答中注明出处。',
    },
  },
  {
    id: 'token',
    term: { en: 'Token', zh: 'Token（词元）' },
    definition: {
      en: 'The unit of text a model reads and writes, a word or part of one; context windows, prices and rate limits of language models are counted in tokens.',
      zh: '模型读写文本的基本单位，可能是一个词或词的一部分；大模型的上下文窗口、价格和限流都以 Token 计量。',
    },
  },
  {
    id: 'vector-database',
    term: { en: 'Vector database', zh: '向量数据库' },
    definition: {
      en: 'A store that indexes embeddings for nearest-neighbour search, often combined with keyword search and filters; Milvus, pgvector and Elasticsearch are common choices.',
      zh: '为嵌入向量建立索引以进行近邻检索的存储系统，常与关键词检索和过滤条件结合使用；常见选择有 Milvus、pgvector 和 Elasticsearch。',
    },
  },
];

/** The glossary's twin body in one language: one `## term` section per term, its definition below. */
export function glossaryMarkdown(lang: Lang): string {
  return GLOSSARY.map((g) => `## ${g.term[lang]}\n\n${g.definition[lang]}`).join('\n\n');
}
