// GET /api/v2/shop/:Slug/activities/:ActivityID: one activity of the shopfront with its waiver questions.
import { getShopActivityOperation } from '@backbone/contracts';
import { findActivity, listOfferedActivityQuestions } from '@backbone/db';
import { notFound, toQuestion, toShopActivity } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { ShopAppDeps } from '../../deps.js';
import { shopCallerOf } from './shop-caller.js';

export function mountGetShopActivity(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, getShopActivityOperation, async ({ params, req, res }) => {
    const { page } = await shopCallerOf(deps, params.Slug, { req, res }, 'read');
    const activity = await findActivity(deps.pool, page.accountId, params.ActivityID.toLowerCase());
    const questions = activity?.active && activity.inShopfront ? await listOfferedActivityQuestions(deps.pool, page.accountId, activity.activityId) : null;
    if (!activity || !questions) throw notFound('Activity');
    return { status: 200, body: { ...toShopActivity(activity), Questions: questions.map(toQuestion) }, headers: { 'Cache-Control': 'public, max-age=30' } };
  });
}
