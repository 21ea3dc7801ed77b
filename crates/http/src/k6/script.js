// Written by yardstick for one run: what to request is PLAN, how k6 runs
// it is options. Credentials are not in this file: they are read from the
// environment k6 is given.
import http from 'k6/http';
import exec from 'k6/execution';
import { sleep } from 'k6';
import { Counter } from 'k6/metrics';

const PLAN = __PLAN__;

export const options = __OPTIONS__;

// Each block's headers, credentials taken from the environment.
const HEADERS = PLAN.blocks.map((block) => {
  const headers = Object.assign({}, block.headers);
  for (const [name, variable] of block.secrets) {
    if (__ENV[variable] === undefined) {
      // A request without its credential would measure a refusal.
      throw new Error(`${variable} (the ${name} header) is not in the environment`);
    }
    headers[name] = __ENV[variable];
  }
  return headers;
});

// Under --cold, a prefix no other run shares (each virtual user and each
// run of the same script draws its own), so no cache has seen its URLs.
const COLD = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e9).toString(36)}-`;

// The pages (by visit) this virtual user has warmed its connection on.
const warmed = {};

// The block iteration `i` belongs to: the first whose end is past it.
function blockOf(i) {
  let lo = 0;
  let hi = PLAN.ends.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (PLAN.ends[mid] > i) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

// A counted run's iteration: its block, once every iteration of this
// instance that belongs to an earlier block has ended.
export default function () {
  let k;
  let before = 0;
  if (PLAN.perVu) {
    k = blockOf(exec.vu.iterationInScenario);
    if (k > 0) {
      before = exec.instance.vusInitialized * PLAN.ends[k - 1];
    }
  } else {
    const g = exec.scenario.iterationInTest;
    k = blockOf(g);
    if (k > 0) {
      // Iterations are numbered in the order they start, on each instance
      // and over the test, so this many of the instance's come before the
      // block: all of them on one instance, fewer with segments.
      before = Math.max(0, exec.scenario.iterationInInstance - (g - PLAN.ends[k - 1]));
    }
  }
  while (exec.instance.iterationsCompleted + exec.instance.iterationsInterrupted < before) {
    sleep(0.001);
  }
  visit(k);
}

// A timed run's iteration: scenario `bK` is block K.
export function timed() {
  visit(Number(exec.scenario.name.slice(1)));
}

// A timed run's end mark, once per instance after its blocks: the
// iterations it completed, each of which made one measured request. An
// output without it was cut short; one with fewer requests lost its start.
const END = new Counter('yardstick_end');

export function end() {
  END.add(exec.instance.iterationsCompleted, withSegment({}));
}

// `tags` with this instance's execution segment, when it runs one.
function withSegment(tags) {
  const segment = exec.test.options.executionSegment;
  if (segment) {
    tags.segment = String(segment);
  }
  return tags;
}

// Each block's request parameters, made once per virtual user: k6 builds
// `exec.test.options` afresh on every read, which cost a timed run's
// requests a tenth of their median.
const PARAMS = [];

function paramsOf(k) {
  if (PARAMS[k] === undefined) {
    const tags = withSegment(Object.assign({}, PLAN.blocks[k].tags));
    PARAMS[k] = { headers: HEADERS[k], tags: tags, timeout: PLAN.timeout, redirects: 0 };
  }
  return PARAMS[k];
}

function visit(k) {
  const block = PLAN.blocks[k];
  const params = paramsOf(k);
  const tags = params.tags;
  if (!warmed[block.visit]) {
    warmed[block.visit] = true;
    const warm = Object.assign({}, params, { tags: Object.assign({ warmup: '1' }, tags) });
    for (let i = 0; i < PLAN.warm; i++) {
      http.get(url(block, `w${exec.vu.idInTest}-${block.visit}-${i}`), warm);
    }
  }
  http.get(url(block, `${exec.scenario.name}-${exec.scenario.iterationInTest}`), params);
}

// The block's URL; under --cold, with a query no other request has.
function url(block, unique) {
  if (!PLAN.cold) {
    return block.url;
  }
  const separator = block.url.includes('?') ? '&' : '?';
  return `${block.url}${separator}_bench=${COLD}${unique}`;
}
