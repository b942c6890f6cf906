import { MediaLibrary } from '../../features/media/media-library.tsx';
import { ReviewShell } from './review-shell.tsx';

export const meta = () => [{ title: 'Media' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function MediaPage() {
  return (
    <ReviewShell title="Media" permission="content.write">
      <MediaLibrary />
    </ReviewShell>
  );
}
