export const meta = () => [{ title: 'Blog Management' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function BlogListPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-3xl font-bold">Blog Management</h1>
    </div>
  );
}
