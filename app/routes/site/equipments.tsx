import type { Route } from './+types/equipments';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches, contentOf } from '../../lib/site-content.ts';
import { PATHS } from '../../../common/paths.ts';
import { FleetCarousel } from '../../features/site/fleet-carousel.tsx';
import { SiteHero, StatGrid } from '../../features/site/site-sections.tsx';
import { NO_HYDRATION } from '../../lib/hydration.ts';

// Decision 140: served as HTML with the enhancement modules, never hydrated.
export const handle = NO_HYDRATION;

/** Decision 289: the page's content from the published snapshot (or a preview's draft). */
export function loader({ context }: Route.LoaderArgs) {
  return contentOf(context, ['equipment', 'facts']);
}

export const meta = ({ matches }: { matches: MetaMatches }): Route.MetaDescriptors =>
  pageMeta(companyOfMatches(matches), {
    title: 'Our Equipment',
    description: 'Cranes, earthmoving plant, haulage trucks, boats, barges and power equipment, owned and maintained by our own crews.',
    path: PATHS.equipments,
  });

export default function EquipmentsPage({ loaderData }: Route.ComponentProps) {
  const equipment = loaderData.equipment.items;
  const { equipmentStatistics } = loaderData.facts;
  return (
    <>
      <SiteHero title="Our Equipment" subtitle="A modern fleet we own and maintain, so your project never waits for a rental." />
      <FleetCarousel items={equipment} />
      <StatGrid stats={equipmentStatistics} label="Our fleet in numbers" />
    </>
  );
}
