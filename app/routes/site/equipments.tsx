import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../../common/paths.ts';
import { equipment } from '../../../common/content/equipment.ts';
import { equipmentStatistics } from '../../../common/content/facts.ts';
import { FleetCarousel } from '../../features/site/fleet-carousel.tsx';
import { SiteHero, StatGrid } from '../../features/site/site-sections.tsx';
import { NO_HYDRATION } from '../../lib/hydration.ts';

// Decision 140: served as HTML with the enhancement modules, never hydrated.
export const handle = NO_HYDRATION;

export const meta = () =>
  pageMeta({
    title: 'Our Equipment',
    description: 'Cranes, earthmoving plant, haulage trucks, boats, barges and power equipment, owned and maintained by our own crews.',
    path: PATHS.equipments,
  });

export default function EquipmentsPage() {
  return (
    <>
      <SiteHero title="Our Equipment" subtitle="A modern fleet we own and maintain, so your project never waits for a rental." />
      <FleetCarousel items={equipment} />
      <StatGrid stats={equipmentStatistics} label="Our fleet in numbers" />
    </>
  );
}
