export const meta = () => [{ title: 'Edit Blog Post' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function BlogEditPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-3xl font-bold">Edit Blog Post</h1>
    </div>
  );
}
