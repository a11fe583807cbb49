import { invalidRequest } from '../protocol/index.js';

/**
 * Bounds on the shape of any request's params, checked before a schema or handler sees
 * them. Schemas, merge patches, hashing and error formatting all recurse or enumerate keys;
 * a 10 000-deep array or a million-key object would otherwise end as a stack overflow
 * (INTERNAL) or a multi-megabyte error message. No method of the protocol comes near these.
 */
export const paramsShapeLimits = {
  maxDepth: 64,
  maxKeysPerObject: 10_000,
  maxValues: 200_000,
};

/** Throws INVALID_REQUEST (details.code PARAMS_TOO_COMPLEX) when `params` exceeds a bound. Iterative: never recurses. */
export function assertParamsShape(params: unknown, limits = paramsShapeLimits): void {
  const stack: { value: unknown; depth: number }[] = [{ value: params, depth: 0 }];
  let values = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    values += 1;
    if (values > limits.maxValues) throw tooComplex(`more than ${limits.maxValues} values`, 'values', limits.maxValues);
    if (value === null || typeof value !== 'object') continue;
    if (depth >= limits.maxDepth) throw tooComplex(`nested deeper than ${limits.maxDepth}`, 'depth', limits.maxDepth);
    if (Array.isArray(value)) {
      if (values + value.length > limits.maxValues)
        throw tooComplex(`more than ${limits.maxValues} values`, 'values', limits.maxValues);
      for (const item of value) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > limits.maxKeysPerObject)
      throw tooComplex(`an object with more than ${limits.maxKeysPerObject} keys`, 'keys', limits.maxKeysPerObject);
    if (values + keys.length > limits.maxValues)
      throw tooComplex(`more than ${limits.maxValues} values`, 'values', limits.maxValues);
    for (const key of keys) stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1 });
  }
}

function tooComplex(what: string, reason: 'depth' | 'keys' | 'values', limit: number) {
  return invalidRequest(`invalid params: ${what}`, { code: 'PARAMS_TOO_COMPLEX', reason, limit });
}
