/** What the 405 lookup reads of Express's router (router 2.x: a layer per route or middleware). */
interface RouteLayer {
  match(path: string): boolean;
  route?: { _methods(): string[] };
}

/** The part of a request the lookup reads (Express's `req`). */
export interface RoutedRequest {
  method: string;
  path: string;
  app?: { router?: { stack?: RouteLayer[] } };
}

/**
 * The methods the routes of this path answer, when the request's method is not one of them: a
 * POST-only command route called with GET is answered 405 with `Allow: POST`, not 404, which
 * would send its caller looking for a URL that is right. Empty when no route has the path.
 */
export function allowedMethods(request: RoutedRequest): string[] {
  const stack = request.app?.router?.stack;
  if (!stack) return [];
  const allowed = new Set<string>();
  for (const layer of stack) {
    if (!layer.route || !layer.match(request.path)) continue;
    for (const method of layer.route._methods()) allowed.add(method.toUpperCase());
  }
  if (allowed.has(request.method.toUpperCase())) return [];
  return [...allowed].sort();
}
