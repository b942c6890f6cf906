import type { Viewer } from '../../server/modules/messages/messages.service.ts';
import { createUser, type TestApp } from './test-app.ts';

/** A second person of a client, as the messages services see them (decision 281). */
export interface Colleague {
  id: string;
  name: string;
  viewer: Viewer;
}

/**
 * Another person of `client`'s organisation. Organisations (decision 268, users.organisation_id)
 * are built on another branch: until then the colleague is a client `users` row of its own, and
 * belongs to the client through the viewer's `organisationId` (the client's id, which is what
 * projects.client_id holds). Once the column exists this helper sets it and signs the person in.
 */
export async function createColleague(t: TestApp, client: { id: string }, name?: string): Promise<Colleague> {
  const user = await createUser(t, { role: 'client', name });
  return { id: user.id, name: user.name, viewer: { _id: user.id, role: 'client', staffRole: null, organisationId: client.id } };
}
