// Placeholder: POST /api/v2/platform/events, filled in by the platform-events work.
import type { Router } from 'express';

export function mountPublishPlatformEvent(_router: Router, _deps: unknown): void {}
