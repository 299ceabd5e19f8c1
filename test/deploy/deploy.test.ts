/**
 * The deployment files, read as the tools would read them (no Docker engine or cluster here): the compose
 * file runs three replicas that share one Redis behind an official load balancer image, their settings
 * pass the service's own configuration check, and the Kubernetes Redis component points the Deployment
 * at the Service it adds.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { urlFromRoot } from '../support/paths.js';

const root = urlFromRoot('');
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  depends_on?: Record<string, unknown>;
  volumes?: string[];
  ports?: string[];
}

t.test('compose: three replicas sharing one Redis behind nginx, started by one command', async (t) => {
  const compose = parse(read('deploy/compose.yaml')) as { services: Record<string, Service> };
  const { kibitz, redis, lb } = compose.services;
  t.equal(kibitz.deploy?.replicas, 3, 'three replicas of one service: the same environment for each');
  const url = new URL(kibitz.environment!.REDIS_URL);
  t.equal(url.hostname, 'redis', 'REDIS_URL names the Redis service');
  t.equal(Number(url.port), 6379);
  const config = loadConfig(kibitz.environment);
  t.equal(config.redisUrl, 'redis://redis:6379', "the environment passes the service's configuration check");
  t.ok(config.rateLimitPerMinute > 0 && config.trustProxy !== false, 'limits per client, behind the trusted load balancer');
  t.notOk(kibitz.depends_on, 'the replicas do not wait for Redis: it is not needed to answer');

  t.match(redis.image, /^redis:\d/, 'the official Redis image');
  t.same(redis.command?.slice(0, 5), ['redis-server', '--save', '', '--appendonly', 'no'], 'a cache: nothing written to disk');
  t.ok(redis.command?.includes('allkeys-lru'), 'evicts rather than refuses writes when full');

  t.match(lb.image, /^nginx:\d/, 'the official nginx image');
  t.same(Object.keys(lb.depends_on ?? {}), ['kibitz']);
  t.ok(lb.volumes?.some((v) => v.startsWith('./nginx.conf:')), 'with deploy/nginx.conf');
  t.same(lb.ports, ['8080:8080']);
  const nginx = read('deploy/nginx.conf');
  t.match(nginx, /server kibitz:8080 resolve;/, 'nginx spreads over every kibitz replica');
  t.match(nginx, /proxy_set_header X-Forwarded-For \$remote_addr;/, 'and tells them the client address (set, not appended)');
});

t.test('kubernetes: the optional Redis component adds Redis and points the Deployment at it', async (t) => {
  const component = parse(read('deploy/kubernetes/components/redis/kustomization.yaml')) as {
    kind: string;
    resources: string[];
    patches: Array<{ target: { kind: string; name: string }; patch: string }>;
  };
  t.equal(component.kind, 'Component');
  const manifests = parseAllDocuments(read('deploy/kubernetes/components/redis/redis.yaml')).map((d) => d.toJS());
  t.same(component.resources, ['redis.yaml']);
  const service = manifests.find((m) => m.kind === 'Service');
  const deployment = manifests.find((m) => m.kind === 'Deployment');
  t.match(deployment.spec.template.spec.containers[0].image, /^redis:\d/);
  t.same(service.spec.selector, deployment.spec.selector.matchLabels, 'the Service selects the Redis pods');

  const base = parse(read('deploy/kubernetes/deployment.yaml'));
  t.equal(component.patches[0].target.name, base.metadata.name, 'the patch targets the kibitz Deployment');
  const ops = parse(component.patches[0].patch) as Array<{ op: string; path: string; value: { name: string; value: string } }>;
  const env = Object.fromEntries(ops.map((o) => [o.value.name, o.value.value]));
  t.equal(new URL(env.REDIS_URL).hostname, service.metadata.name, 'REDIS_URL names the Service');
  t.equal(Number(new URL(env.REDIS_URL).port), service.spec.ports[0].port);
  t.doesNotThrow(() => loadConfig(env));
  t.ok(ops.every((o) => o.op === 'add' && o.path === '/spec/template/spec/containers/0/env/-'), 'added to the env list the base has');
  t.ok(Array.isArray(base.spec.template.spec.containers[0].env));

  const overlay = parse(read('deploy/kubernetes-shared-redis/kustomization.yaml')) as { resources: string[]; components: string[] };
  for (const path of [...overlay.resources.map((r) => `${r}/kustomization.yaml`), ...overlay.components.map((c) => `${c}/kustomization.yaml`)]) {
    t.ok(existsSync(new URL(`deploy/kubernetes-shared-redis/${path}`, root)), `the overlay's ${path} exists`);
  }
});
