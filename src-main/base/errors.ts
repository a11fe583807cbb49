/** Compile-time exhaustiveness: a new union member breaks the build where it is unhandled. */
export function assertNever(value: never, message = 'unexpected value'): never {
  throw new Error(`${message}: ${JSON.stringify(value)}`);
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
