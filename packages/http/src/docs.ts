// /openapi.json and human-readable docs at /docs, served from the swagger-ui-dist package so they work offline.
import express, { type Router } from 'express';
import { createRequire } from 'node:module';
import path from 'node:path';

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true });</script>
</body></html>`;

export function docsRouter(document: object): Router {
  const router = express.Router();
  const json = JSON.stringify(document);
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.use('/docs/assets', express.static(swaggerUiDir, { index: false }));
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(page);
  });
  return router;
}
