/**
 * The 30 planted queries of the relevance benchmark (10 zh, 10 en, 10 mixed; search.md §8). Each has
 * one target document that covers every concept of the query, and two distractors that each cover
 * only part of it (heavily). Some queries test stemming, prefix matching and typos.
 * @module
 */

/** A planted document: title plus the phrases its body repeats. */
export interface PlantedDocSpec {
  title: string;
  phrases: string[];
}

/** A planted query with the documents it should (target) and should not (distractors) rank first. */
export interface PlantedQuerySpec {
  id: string;
  lang: 'zh' | 'en' | 'mixed';
  /** Topic key (see corpus-vocabulary.ts) used for the rest of the planted bodies. */
  topic: string;
  query: string;
  /** What the query exercises. */
  note: string;
  target: PlantedDocSpec;
  distractors: [PlantedDocSpec, PlantedDocSpec];
}

const d = (title: string, ...phrases: string[]): PlantedDocSpec => ({ title, phrases });

export const PLANTED_QUERIES: PlantedQuerySpec[] = [
  // Chinese
  {
    id: 'z01',
    lang: 'zh',
    topic: 'deploy',
    query: '私有化部署 显存估算',
    note: 'two zh compounds',
    target: d('私有化部署中的显存估算方法', '私有化部署', '显存估算'),
    distractors: [d('私有化部署的网络与存储规划', '私有化部署', '网络规划'), d('推理服务的显存估算与监控', '显存估算', '推理服务')],
  },
  {
    id: 'z02',
    lang: 'zh',
    topic: 'gateway',
    query: '网关限流熔断',
    note: 'unsegmented zh phrase',
    target: d('大模型网关的限流与熔断设计', '网关', '限流', '熔断'),
    distractors: [d('网关密钥管理实践', '网关', '密钥管理'), d('服务熔断与降级策略', '熔断', '降级')],
  },
  {
    id: 'z03',
    lang: 'zh',
    topic: 'vectordb',
    query: '向量数据库选型',
    note: 'compound + 选型',
    target: d('向量数据库选型对比：五个维度', '向量数据库', '选型'),
    distractors: [d('向量数据库性能调优', '向量数据库', '性能调优'), d('推理框架选型建议', '推理框架', '选型')],
  },
  {
    id: 'z04',
    lang: 'zh',
    topic: 'agents',
    query: '智能体工具调用',
    note: 'unsegmented zh phrase',
    target: d('智能体工具调用的权限设计', '智能体', '工具调用'),
    distractors: [d('智能体长期记忆方案', '智能体', '长期记忆'), d('函数调用与工具注册机制', '函数调用', '工具注册')],
  },
  {
    id: 'z05',
    lang: 'zh',
    topic: 'rag',
    query: '文档切分 召回率',
    note: 'two zh compounds',
    target: d('文档切分策略与召回率提升', '文档切分', '召回率'),
    distractors: [d('文档解析中的表格处理', '文档解析', '表格处理'), d('召回率评估方法', '召回率', '评估方法')],
  },
  {
    id: 'z06',
    lang: 'zh',
    topic: 'deploy',
    query: '信创 昇腾 推理',
    note: 'three short zh words',
    target: d('信创环境下的昇腾推理部署', '信创', '昇腾', '推理'),
    distractors: [d('信创操作系统适配清单', '信创', '操作系统'), d('昇腾训练集群运维', '昇腾', '训练集群')],
  },
  {
    id: 'z07',
    lang: 'zh',
    topic: 'gateway',
    query: '多租户 配额',
    note: 'zh words',
    target: d('多租户配额与计费设计', '多租户', '配额'),
    distractors: [d('多租户隔离方案', '多租户', '隔离'), d('显卡配额管理', '显卡', '配额')],
  },
  {
    id: 'z08',
    lang: 'zh',
    topic: 'rag',
    query: '知识库问答 幻觉',
    note: 'zh compound + short word',
    target: d('知识库问答的幻觉治理', '知识库问答', '幻觉'),
    distractors: [d('知识库建设流程', '知识库', '建设流程'), d('大模型幻觉的成因分析', '幻觉', '成因分析')],
  },
  {
    id: 'z09',
    lang: 'zh',
    topic: 'aigc',
    query: '营销文案 合规审核',
    note: 'two zh compounds',
    target: d('营销文案生成的合规审核流程', '营销文案', '合规审核'),
    distractors: [d('营销文案风格模板', '营销文案', '风格模板'), d('视频内容合规审核', '视频内容', '合规审核')],
  },
  {
    id: 'z10',
    lang: 'zh',
    topic: 'finetune',
    query: '模型量化 精度损失',
    note: 'two zh compounds',
    target: d('模型量化的精度损失评估', '模型量化', '精度损失'),
    distractors: [d('模型量化工具对比', '模型量化', '工具对比'), d('混合精度训练中的数值问题', '混合精度', '数值问题')],
  },
  // English
  {
    id: 'e01',
    lang: 'en',
    topic: 'finetune',
    query: 'deploying distilled reasoning models',
    note: 'stemming (deploying/deployment)',
    target: d('Deployment of distilled reasoning models on private GPUs', 'deployment', 'distilled reasoning model'),
    distractors: [
      d('Distilled models compared on math benchmarks', 'distilled model', 'benchmark'),
      d('Deploying models with Helm charts', 'deploying models', 'Helm chart'),
    ],
  },
  {
    id: 'e02',
    lang: 'en',
    topic: 'gpu',
    query: 'kubernetes gpu autoscaling',
    note: 'three words',
    target: d('GPU autoscaling on Kubernetes', 'GPU autoscaling', 'Kubernetes'),
    distractors: [
      d('Kubernetes networking for inference', 'Kubernetes', 'networking'),
      d('GPU utilization dashboards', 'GPU utilization', 'dashboard'),
    ],
  },
  {
    id: 'e03',
    lang: 'en',
    topic: 'finetune',
    query: 'faster inference speculat',
    note: 'prefix on the last word',
    target: d('Speculative decoding for faster inference', 'speculative decoding', 'faster inference'),
    distractors: [
      d('Faster inference with continuous batching', 'faster inference', 'continuous batching'),
      d('Speculation about future GPU prices', 'speculation', 'GPU prices'),
    ],
  },
  {
    id: 'e04',
    lang: 'en',
    topic: 'agents',
    query: 'promt injection defense',
    note: 'typo (promt)',
    target: d('Prompt injection defense for tool-using agents', 'prompt injection', 'defense'),
    distractors: [
      d('Prompt templates for marketing teams', 'prompt templates', 'marketing'),
      d('Defense in depth for API gateways', 'defense in depth', 'gateway'),
    ],
  },
  {
    id: 'e05',
    lang: 'en',
    topic: 'rag',
    query: 'hallucinaton detection',
    note: 'typo (hallucinaton)',
    target: d('Hallucination detection for RAG answers', 'hallucination detection', 'RAG answers'),
    distractors: [
      d('Anomaly detection on GPU clusters', 'anomaly detection', 'GPU cluster'),
      d('Why hallucinations happen in long contexts', 'hallucinations', 'long context'),
    ],
  },
  {
    id: 'e06',
    lang: 'en',
    topic: 'gateway',
    query: 'api gateway rate limiting',
    note: 'stemming (limiting/limits)',
    target: d('Rate limiting at the API gateway', 'API gateway', 'rate limits'),
    distractors: [
      d('API gateway key management', 'API gateway', 'key management'),
      d('Rate limiting for agent tool calls', 'rate limiting', 'tool calls'),
    ],
  },
  {
    id: 'e07',
    lang: 'en',
    topic: 'agents',
    query: 'multi-agent orchestration workflows',
    note: 'hyphenated word',
    target: d('Orchestrating multi-agent workflows', 'multi-agent orchestration', 'workflows'),
    distractors: [
      d('Workflow engines for approval processes', 'workflow engine', 'approval'),
      d('Multi-agent debate for evaluation', 'multi-agent debate', 'evaluation'),
    ],
  },
  {
    id: 'e08',
    lang: 'en',
    topic: 'rag',
    query: 'hybrid search reranking',
    note: 'stemming (reranking/reranker)',
    target: d('Hybrid search and reranking for RAG', 'hybrid search', 'reranker'),
    distractors: [
      d('Hybrid cloud deployment patterns', 'hybrid cloud', 'deployment'),
      d('Reranking models compared', 'reranking models', 'comparison'),
    ],
  },
  {
    id: 'e09',
    lang: 'en',
    topic: 'finetune',
    query: 'lora fine-tuning small datasets',
    note: 'product name + stemming',
    target: d('LoRA fine-tuning on small datasets', 'LoRA fine-tuning', 'small dataset'),
    distractors: [
      d('Full fine-tuning versus adapters at scale', 'full fine-tuning', 'adapters'),
      d('Cleaning small datasets for evaluation', 'small datasets', 'data cleaning'),
    ],
  },
  {
    id: 'e10',
    lang: 'en',
    topic: 'gpu',
    query: 'kv cache quantiz',
    note: 'prefix on the last word',
    target: d('KV cache quantization for long contexts', 'KV cache quantization', 'long context'),
    distractors: [
      d('KV cache offloading to CPU memory', 'KV cache offloading', 'CPU memory'),
      d('Weight quantization with AWQ', 'weight quantization', 'AWQ'),
    ],
  },
  // Mixed
  {
    id: 'm01',
    lang: 'mixed',
    topic: 'deploy',
    query: '私有化部署 LLM',
    note: 'zh compound + Latin acronym',
    target: d('LLM 私有化部署全流程', '私有化部署', 'LLM'),
    distractors: [d('私有化部署的网络隔离', '私有化部署', '网络隔离'), d('LLM 评测基准对比', 'LLM', '评测基准')],
  },
  {
    id: 'm02',
    lang: 'mixed',
    topic: 'gateway',
    query: 'API 网关',
    note: 'Latin acronym + zh word',
    target: d('API 网关选型与落地', 'API 网关', 'API'),
    distractors: [d('API 设计规范', 'API', '设计规范'), d('服务网关的性能测试', '服务网关', '性能测试')],
  },
  {
    id: 'm03',
    lang: 'mixed',
    topic: 'agents',
    query: 'agent 编排',
    note: 'lowercase Latin vs Agent',
    target: d('Agent 编排框架实践', 'Agent 编排', 'Agent'),
    distractors: [d('Agent 记忆模块设计', 'Agent', '记忆模块'), d('容器编排与调度', '容器编排', '调度')],
  },
  {
    id: 'm04',
    lang: 'mixed',
    topic: 'rag',
    query: 'RAG 表格解析',
    note: 'compound whose bigram 格解 crosses words',
    target: d('RAG 中的表格解析方案', 'RAG', '表格解析'),
    distractors: [d('RAG 召回评估', 'RAG', '召回评估'), d('PDF 表格识别工具', 'PDF', '表格识别')],
  },
  {
    id: 'm05',
    lang: 'mixed',
    topic: 'gpu',
    query: 'vLLM 多卡部署',
    note: 'product + zh compound',
    target: d('vLLM 多卡部署实战', 'vLLM', '多卡部署'),
    distractors: [d('vLLM 参数调优', 'vLLM', '参数调优'), d('多卡训练通信优化', '多卡训练', '通信优化')],
  },
  {
    id: 'm06',
    lang: 'mixed',
    topic: 'vectordb',
    query: 'Milvus 索引 调优',
    note: 'product + two zh words',
    target: d('Milvus 索引调优指南', 'Milvus', '索引调优'),
    distractors: [d('Milvus 集群部署', 'Milvus', '集群部署'), d('倒排索引的原理', '倒排索引', '原理')],
  },
  {
    id: 'm07',
    lang: 'mixed',
    topic: 'finetune',
    query: 'LoRA 微调 显存',
    note: 'product + two zh words',
    target: d('LoRA 微调的显存优化', 'LoRA 微调', '显存'),
    distractors: [d('LoRA 原理解读', 'LoRA', '原理解读'), d('推理阶段的显存估算', '显存估算', '推理阶段')],
  },
  {
    id: 'm08',
    lang: 'mixed',
    topic: 'gateway',
    query: 'Higress 限流',
    note: 'product + zh word',
    target: d('Higress 限流插件配置', 'Higress', '限流'),
    distractors: [d('Higress 路由配置', 'Higress', '路由配置'), d('Redis 分布式限流', 'Redis', '分布式限流')],
  },
  {
    id: 'm09',
    lang: 'mixed',
    topic: 'agents',
    query: 'MCP 工具 权限',
    note: 'protocol name + two zh words',
    target: d('MCP 工具的权限控制', 'MCP', '工具', '权限控制'),
    distractors: [d('MCP 协议入门', 'MCP', '协议入门'), d('工具调用日志审计', '工具调用', '日志审计')],
  },
  {
    id: 'm10',
    lang: 'mixed',
    topic: 'gpu',
    query: 'H100 推理吞吐',
    note: 'hardware name + zh compound',
    target: d('H100 推理吞吐测试', 'H100', '推理吞吐'),
    distractors: [d('H100 集群采购指南', 'H100', '集群采购'), d('推理吞吐与延迟的权衡', '推理吞吐', '延迟')],
  },
];
