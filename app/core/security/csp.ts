/**
 * The Content-Security-Policy for every page Plumb shows, in Electron and in a browser: only our
 * own scripts and styles, no eval, no framing, network only back to where the page came from.
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');
