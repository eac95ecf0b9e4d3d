/**
 * Vocabulary of the synthetic benchmark corpus: eight topics (mapped onto the site's six category
 * slugs), bilingual concept pairs, product and hardware names, commands and sentence templates.
 * Written for this benchmark; the sentences are generic on purpose.
 * @module
 */

/** An English/Chinese concept pair. */
export interface Concept {
  en: string;
  zh: string;
}

/** One topic of the corpus. */
export interface Topic {
  key: string;
  /** Category slug from content/categories.yaml. */
  category: string;
  concepts: Concept[];
  products: string[];
  commands: string[];
  /** Extra topic-specific sentences; `{c}`, `{c2}`, `{p}`, `{p2}`, `{n}`, `{m}`, `{pct}` are filled in. */
  en: string[];
  zh: string[];
}

const c = (en: string, zh: string): Concept => ({ en, zh });

export const TOPICS: Topic[] = [
  {
    key: 'deploy',
    category: 'private-deployment',
    concepts: [
      c('on-premise deployment', '私有化部署'), c('air-gapped environment', '离线环境'), c('GPU memory estimation', '显存估算'),
      c('inference service', '推理服务'), c('model serving', '模型服务'), c('container platform', '容器平台'),
      c('high availability', '高可用'), c('capacity planning', '容量规划'), c('data residency', '数据不出域'),
      c('model weights', '模型权重'), c('rolling upgrade', '滚动升级'), c('monitoring and alerting', '监控告警'),
      c('Xinchuang hardware', '信创硬件'), c('domestic accelerators', '国产算力'), c('network isolation', '网络隔离'),
    ],
    products: ['vLLM', 'SGLang', 'TensorRT-LLM', 'Triton Inference Server', 'TGI', 'Ollama', 'llama.cpp', 'KServe', 'Ray Serve', 'Kubernetes', 'Helm', 'Docker', 'Harbor', 'Prometheus', 'Grafana', 'Kylin OS', 'UOS', 'MindIE', 'Xinference', 'LMDeploy'],
    commands: [
      'vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 4 --max-model-len 32768',
      'kubectl get pods -n llm-serving -o wide',
      'docker run --gpus all -p 8000:8000 vllm/vllm-openai:latest',
      'helm upgrade --install llm-platform ./charts/llm-platform -f values-prod.yaml',
      'python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1-Distill-Qwen-32B --tp 2',
    ],
    en: [
      'Every weight file is copied through the approved transfer station, scanned, then mirrored into Harbor.',
      'Without outbound internet access, the image registry and the model repository must live inside the cluster.',
      'The estimate is simple: parameters times bytes per parameter, plus the KV cache for the longest context, plus about 10% headroom.',
    ],
    zh: [
      '所有权重文件都要经过审批的摆渡机拷贝、扫描，然后同步到内部镜像仓库。',
      '在没有外网的环境里，镜像仓库和模型仓库都必须部署在集群内部。',
      '显存估算的公式并不复杂：参数量乘以每个参数的字节数，加上最长上下文的 KV 缓存，再预留一成余量。',
    ],
  },
  {
    key: 'gpu',
    category: 'private-deployment',
    concepts: [
      c('GPU cluster', '算力集群'), c('tensor parallelism', '张量并行'), c('pipeline parallelism', '流水线并行'), c('KV cache', 'KV 缓存'),
      c('continuous batching', '连续批处理'), c('throughput', '吞吐量'), c('first-token latency', '首字延迟'), c('memory bandwidth', '显存带宽'),
      c('multi-GPU deployment', '多卡部署'), c('autoscaling', '弹性伸缩'), c('GPU utilization', '显卡利用率'), c('power consumption', '功耗'),
      c('compute budget', '算力预算'), c('interconnect topology', '互联拓扑'),
    ],
    products: ['H100', 'H800', 'H20', 'A100', 'A800', 'L40S', 'L20', 'RTX 4090', 'Ascend 910B', 'Kunlun P800', 'Hygon DCU', 'NVLink', 'InfiniBand', 'RoCE', 'NCCL', 'CUDA', 'DCGM', 'MIG'],
    commands: [
      'nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv -l 5',
      'npu-smi info -t usages -i 0',
      'kubectl describe node gpu-node-03 | grep nvidia.com/gpu',
      'dcgmi dmon -e 1002,1003,1004 -d 1000',
    ],
    en: [
      'Decode is bound by memory bandwidth, so a card with faster HBM often beats one with more FLOPS.',
      'We pin each replica to GPUs that share an NVLink switch to avoid crossing the PCIe root complex.',
      'Utilization above 90% looks good on a dashboard but usually means requests are queuing.',
    ],
    zh: [
      '解码阶段受显存带宽限制，带宽更高的卡往往比算力更强的卡表现更好。',
      '我们把每个副本固定在同一个 NVLink 交换域内的显卡上，避免跨 PCIe 根复合体通信。',
      '看板上 90% 以上的利用率看起来很漂亮，但通常意味着请求正在排队。',
    ],
  },
  {
    key: 'agents',
    category: 'ai-agents',
    concepts: [
      c('AI agent', '智能体'), c('tool calling', '工具调用'), c('agent orchestration', '智能体编排'), c('multi-agent collaboration', '多智能体协作'),
      c('workflow engine', '工作流引擎'), c('task planning', '任务规划'), c('long-term memory', '长期记忆'), c('human approval', '人工审批'),
      c('prompt injection', '提示词注入'), c('permission control', '权限控制'), c('function calling', '函数调用'), c('retry and fallback', '失败重试'),
      c('agent evaluation', '智能体评测'), c('enterprise integration', '系统集成'),
    ],
    products: ['LangChain', 'LangGraph', 'LlamaIndex', 'AutoGen', 'CrewAI', 'Dify', 'Coze', 'MCP', 'OAuth 2.1', 'OpenAPI', 'Temporal', 'Semantic Kernel'],
    commands: [
      'npx @modelcontextprotocol/inspector node dist/server.js',
      'langgraph dev --port 8123',
      'temporal workflow start --task-queue agents --type ApprovalWorkflow',
    ],
    en: [
      'Each tool gets a narrow schema, a timeout and an explicit list of scopes it may use.',
      'The planner proposes steps; a separate executor runs them and reports structured results.',
      'Anything that changes data outside the sandbox waits for a human to approve it.',
    ],
    zh: [
      '每个工具都有严格的参数模式、超时时间和明确的权限范围。',
      '规划器负责拆解步骤，执行器单独运行每一步并返回结构化结果。',
      '凡是会修改沙箱之外数据的操作，都要等待人工确认后才能执行。',
    ],
  },
  {
    key: 'aigc',
    category: 'aigc',
    concepts: [
      c('marketing copy', '营销文案'), c('image generation', '图像生成'), c('video generation', '视频生成'), c('brand consistency', '品牌一致性'),
      c('content compliance', '内容合规'), c('compliance review', '合规审核'), c('AI-generated content labeling', '生成内容标识'), c('style transfer', '风格迁移'),
      c('prompt templates', '提示词模板'), c('human review', '人工审核'), c('copyright risk', '版权风险'), c('product photos', '商品图'),
    ],
    products: ['Stable Diffusion', 'SDXL', 'FLUX.1', 'ComfyUI', 'ControlNet', 'Midjourney', 'Kling', 'Sora', 'Whisper', 'CosyVoice', 'Wan 2.1', 'HunyuanVideo'],
    commands: [
      'python main.py --listen 0.0.0.0 --port 8188',
      'comfy node install comfyui-controlnet-aux',
      'ffmpeg -i draft.mp4 -vf scale=1080:1920 final.mp4',
    ],
    en: [
      'Every generated asset carries a visible label and an implicit watermark, as the labeling rules require.',
      'The brand kit (colors, fonts, forbidden words) is injected into every prompt template.',
      'Reviewers see the prompt, the model version and the source images next to each output.',
    ],
    zh: [
      '每个生成的素材都带有显式标识和隐式水印，满足生成内容标识的要求。',
      '品牌手册中的颜色、字体和禁用词会被注入到每一个提示词模板中。',
      '审核人员可以在每条输出旁边看到提示词、模型版本和参考图片。',
    ],
  },
  {
    key: 'gateway',
    category: 'api-gateway',
    concepts: [
      c('API gateway', 'API 网关'), c('rate limiting', '限流'), c('circuit breaking', '熔断'), c('token budget', '用量预算'),
      c('multi-tenant quotas', '多租户配额'), c('model routing', '模型路由'), c('API key management', '密钥管理'), c('audit log', '审计日志'),
      c('load balancing', '负载均衡'), c('semantic cache', '语义缓存'), c('failover', '故障切换'), c('usage metering', '用量计量'),
    ],
    products: ['Higress', 'Kong', 'Apache APISIX', 'Envoy', 'Nginx', 'Redis', 'Istio', 'OpenResty', 'LiteLLM', 'One API', 'Spring Cloud Gateway'],
    commands: [
      'kubectl apply -f higress-ai-ratelimit.yaml',
      'curl -H "Authorization: Bearer $API_KEY" https://gateway.internal/v1/chat/completions',
      'redis-cli --scan --pattern "quota:*" | head',
    ],
    en: [
      'Limits are counted in tokens per minute, not only requests per minute, because one long prompt costs as much as fifty short ones.',
      'When an upstream fails five times in ten seconds, the breaker opens and traffic moves to the fallback model.',
      'Every key belongs to a team, an application and a list of allowed models.',
    ],
    zh: [
      '限流按每分钟 Token 数计算，而不只是每分钟请求数，因为一个长提示词的成本相当于五十个短请求。',
      '上游在十秒内失败五次后熔断器打开，流量切换到备用模型。',
      '每个密钥都归属于一个团队、一个应用以及一组允许调用的模型。',
    ],
  },
  {
    key: 'rag',
    category: 'rag',
    concepts: [
      c('retrieval-augmented generation', '检索增强生成'), c('document chunking', '文档切分'), c('recall rate', '召回率'), c('hybrid search', '混合检索'),
      c('reranking', '重排序'), c('query rewriting', '查询改写'), c('knowledge base', '知识库'), c('hallucination', '幻觉'),
      c('faithfulness evaluation', '忠实度评估'), c('table parsing', '表格解析'), c('document parsing', '文档解析'), c('source citation', '引用溯源'),
      c('embedding model', '向量模型'),
    ],
    products: ['bge-m3', 'bge-reranker-v2', 'Cohere Rerank', 'BM25', 'RRF', 'Unstructured', 'MinerU', 'RAGAS', 'LlamaParse', 'Jina Embeddings'],
    commands: [
      'python ingest.py --chunk-size 512 --chunk-overlap 64 --source ./docs',
      'ragas evaluate --dataset golden.jsonl --metrics faithfulness,context_recall',
      'magic-pdf -p manual.pdf -o ./parsed -m auto',
    ],
    en: [
      'Most wrong answers trace back to retrieval: the right passage never reached the context window.',
      'Parent-child chunks keep small pieces for matching and return the whole section to the model.',
      'Each answer sentence must cite a passage, and sentences without support are flagged.',
    ],
    zh: [
      '大多数错误回答都可以追溯到检索环节：正确的段落根本没有进入上下文窗口。',
      '父子块策略用小块做匹配，再把整个章节交给模型。',
      '每个回答句子都必须引用原文段落，没有依据的句子会被标记出来。',
    ],
  },
  {
    key: 'vectordb',
    category: 'rag',
    concepts: [
      c('vector database', '向量数据库'), c('vector index', '向量索引'), c('graph index', '图索引'), c('approximate nearest neighbor', '近似最近邻'),
      c('index tuning', '索引调优'), c('metadata filtering', '标量过滤'), c('sharding', '数据分片'), c('technology selection', '技术选型'),
      c('write throughput', '写入吞吐'), c('query latency', '查询延迟'), c('storage cost', '存储成本'),
    ],
    products: ['Milvus', 'Zilliz Cloud', 'pgvector', 'Elasticsearch', 'OpenSearch', 'Qdrant', 'Weaviate', 'FAISS', 'Chroma', 'Redis Stack', 'HNSW', 'DiskANN'],
    commands: [
      'helm install milvus milvus/milvus --set cluster.enabled=true --set etcd.replicaCount=3',
      "psql -c \"CREATE INDEX ON chunks USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 200)\"",
      'curl -X PUT "localhost:9200/docs" -H "Content-Type: application/json" -d @mapping.json',
    ],
    en: [
      'Raising ef_search from 64 to 256 bought four points of recall for twice the latency.',
      'Filtering by tenant before the vector search keeps results correct and queries fast.',
      'For fewer than five million vectors, pgvector inside the existing PostgreSQL was the cheapest option.',
    ],
    zh: [
      '把 ef_search 从 64 调到 256，召回率提升了四个百分点，延迟翻了一倍。',
      '在向量检索之前先按租户过滤，既保证结果正确又保证查询速度。',
      '向量数量少于五百万时，直接在现有 PostgreSQL 中使用 pgvector 成本最低。',
    ],
  },
  {
    key: 'finetune',
    category: 'engineering',
    concepts: [
      c('LoRA fine-tuning', '参数高效微调'), c('instruction tuning', '指令微调'), c('training data', '训练数据'), c('model quantization', '模型量化'),
      c('accuracy loss', '精度损失'), c('knowledge distillation', '知识蒸馏'), c('reasoning model', '推理模型'), c('speculative decoding', '投机解码'),
      c('evaluation set', '评测集'), c('structured output', '结构化输出'), c('mixed precision', '混合精度'), c('small datasets', '小样本数据'),
    ],
    products: ['LoRA', 'QLoRA', 'DeepSpeed', 'PEFT', 'Megatron-LM', 'LLaMA-Factory', 'GPTQ', 'AWQ', 'FP8', 'INT4', 'GGUF', 'Qwen2.5', 'DeepSeek-R1', 'Llama 3.1', 'GLM-4', 'Mistral', 'EAGLE', 'Medusa'],
    commands: [
      'llamafactory-cli train examples/train_lora/qwen2_5_lora_sft.yaml',
      'accelerate launch train.py --lora_r 16 --lora_alpha 32 --learning_rate 2e-4',
      'python -m awq.entry --model_path ./merged --w_bit 4 --q_group_size 128',
    ],
    en: [
      'A rank of 16 was enough; going to 64 doubled memory and changed nothing on the evaluation set.',
      'We hold out 10% of the data and never look at it until the final comparison.',
      'INT4 weights cut memory by 70%, and the accuracy loss stayed under one point on our tasks.',
    ],
    zh: [
      '秩设为 16 就足够了，调到 64 显存翻倍，评测集上却没有任何变化。',
      '我们预留 10% 的数据，直到最终对比之前都不去看它。',
      'INT4 权重让显存占用下降了 70%，在我们的任务上精度损失不到一个百分点。',
    ],
  },
];

/** Generic English sentences shared by every topic. */
export const EN_SENTENCES = [
  '{C} is where most teams underestimate the effort.',
  'We measured {c} on {p} with {n} concurrent requests.',
  'In our setup, {p} handles {c} while {p2} takes care of {c2}.',
  'The first version relied on {p}, but {c} became a bottleneck after {n} days in production.',
  'Before changing anything, record a baseline for {c} and {c2}.',
  'A common mistake is to treat {c} as an afterthought.',
  'With {p}, {c} took about {n} minutes to set up.',
  'Our checklist for {c} covers ownership, metrics, alerts and a rollback plan.',
  'The numbers below come from a {n}-node test cluster running {p}.',
  'If {c} fails, the system should degrade gracefully rather than stop.',
  'Teams that skip {c} usually pay for it later with {c2}.',
  'We ended up combining {p} and {p2} to balance {c} against {c2}.',
  'Latency dropped from {n} ms to {m} ms after we tuned {c}.',
  'Cost matters as much as quality: {c} accounted for {pct}% of the monthly bill.',
  'Document every decision about {c} so the next team understands why it was made.',
  'The trade-off between {c} and {c2} depends on your traffic pattern.',
  'Security reviews focused on {c} and on how {p} stores credentials.',
  'We run the same benchmark every release to catch regressions in {c}.',
  '{P} exposes metrics for {c}, which we scrape every fifteen seconds.',
  'For smaller deployments, {p} alone is enough to cover {c}.',
  'Customers ask about {c} first and about {c2} second.',
  'After {n} weeks, the operations team owned {c} without help from us.',
  'We keep a runbook for {c} next to the dashboards, not in a wiki nobody reads.',
  'Upgrading {p} changed the defaults for {c}, so pin versions and read the release notes.',
  'The pilot covered {n} users; the rollout to all {m} users took another month.',
];

/** Generic Chinese sentences shared by every topic. */
export const ZH_SENTENCES = [
  '在实际项目中，{c}往往是最容易被低估的环节。',
  '我们在 {p} 上测试了{c}，并发请求数为 {n}。',
  '在我们的方案里，{p} 负责{c}，{p2} 负责{c2}。',
  '第一版方案依赖 {p}，上线 {n} 天后{c}成为瓶颈。',
  '动手优化之前，先为{c}和{c2}建立基线。',
  '常见的误区是把{c}当作事后补救的工作。',
  '使用 {p} 搭建{c}大约需要 {n} 分钟。',
  '{c}的检查清单包括责任人、指标、告警和回滚预案。',
  '以下数据来自一个运行 {p} 的 {n} 节点测试集群。',
  '当{c}出现故障时，系统应当平滑降级，而不是直接停止服务。',
  '跳过{c}的团队，通常会在{c2}上付出代价。',
  '最终我们组合使用 {p} 和 {p2}，在{c}与{c2}之间取得平衡。',
  '调优{c}之后，延迟从 {n} 毫秒降到 {m} 毫秒。',
  '成本和效果同样重要：{c}占了月度账单的 {pct}%。',
  '关于{c}的每一个决策都应记录下来，方便后来的团队理解原因。',
  '{c}与{c2}之间的取舍取决于业务的流量特征。',
  '安全评审重点关注{c}，以及 {p} 如何保存凭据。',
  '每次发布我们都会运行同一套基准测试，防止{c}出现回退。',
  '{p} 提供了{c}相关的指标，我们每十五秒采集一次。',
  '对于规模较小的部署，单独使用 {p} 就足以覆盖{c}。',
  '客户最关心的是{c}，其次才是{c2}。',
  '{n} 周之后，运维团队已经可以独立负责{c}。',
  '从大模型落地的角度看，{c}决定了项目能否顺利通过验收。',
  '升级 {p} 会改变{c}的默认配置，因此要锁定版本并阅读发布说明。',
  '试点覆盖了 {n} 名用户，推广到全部 {m} 名用户又花了一个月。',
];

export const EN_HEADINGS = ['Background', 'Why {c} matters', 'Architecture', 'Setting up {p}', 'Results', 'Lessons learned', 'Checklist', 'Common pitfalls', 'Next steps', 'Costs'];
export const ZH_HEADINGS = ['背景', '为什么{c}很重要', '整体架构', '部署 {p}', '测试结果', '经验总结', '检查清单', '常见问题', '下一步', '成本分析'];

export const EN_TITLES = [
  '{C} with {p}: a practical guide',
  'How we improved {c} on {p}',
  '{C} and {c2} in production',
  'Lessons from {n} months of {c}',
  'A checklist for {c}',
  'Choosing {c} for enterprise LLM platforms',
  '{p} in practice: {c} and {c2}',
  'Cutting {c} costs by {pct}%',
];

export const ZH_TITLES = [
  '基于 {p} 的{c}实践',
  '{c}与{c2}：生产环境经验',
  '{c}落地指南',
  '从 {n} 到 {m}：{c}优化记录',
  '企业级{c}方案设计',
  '{p} 实战：{c}与{c2}',
  '{c}的 {k} 个常见问题',
];

export const INDUSTRIES = ['Financial services', 'Manufacturing', 'Government', 'Retail', 'Healthcare', 'Energy', 'Telecommunications', 'Education'];
export const PRODUCT_SLUGS = ['llm-platform', 'llm-gateway', 'agent-studio', 'aigc-suite'];
