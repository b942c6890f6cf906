export const meta = () => [{ title: 'New Blog Post' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function BlogNewPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-3xl font-bold">New Blog Post</h1>
    </div>
  );
}
