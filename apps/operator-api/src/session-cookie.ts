// The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure when the
// request came over https (directly or through the gateway's X-Forwarded-Proto).
import type { Request, Response } from 'express';
import { SESSION_COOKIE } from '@backbone/http';

export function setSessionCookie(req: Request, res: Response, sessionId: string, maxAgeMs: number): void {
  res.cookie(SESSION_COOKIE, sessionId, { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/', maxAge: maxAgeMs });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/' });
}
