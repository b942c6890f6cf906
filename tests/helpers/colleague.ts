import type { Viewer } from '../../server/modules/messages/messages.service.ts';
import { createUser, type TestApp } from './test-app.ts';

/** A second person of a client, as the messages services see them (decision 281). */
export interface Colleague {
  id: string;
  name: string;
  viewer: Viewer;
}

/** Another person of `client`'s organisation (decision 279), a plain member of it. */
export async function createColleague(t: TestApp, client: { id: string }, name?: string): Promise<Colleague> {
  const user = await createUser(t, { role: 'client', name, organisationId: client.id, memberRole: 'member' });
  return { id: user.id, name: user.name, viewer: { _id: user.id, role: 'client', staffRole: null, organisationId: client.id } };
}
