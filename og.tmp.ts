import { renderOgImage } from './src/lib/og-image.ts';
import { writeFileSync } from 'node:fs';
const t = performance.now();
writeFileSync('/tmp/og-test.png', await renderOgImage({ title: '私有化部署大模型完整指南：GPU 选型', kicker: '私有化部署', brand: '艾克米智能', host: 'x', lang: 'zh' }));
console.log(performance.now() - t);
