/**
 * Reading the body of a request a mock handler answers: the handlers share it so a CLI that sends
 * no JSON (or broken JSON) is answered the same way by every mock.
 */

/** The request's JSON body (read from a clone, so the request stays readable), or `null` when it is not JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  try {
    return await request.clone().json();
  } catch {
    return null;
  }
}

/** The `model` string of a request body, or `undefined`. */
export function bodyModel(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null && typeof (body as { model?: unknown }).model === 'string' ? (body as { model: string }).model : undefined;
}
