export const meta = () => [{ title: 'Client Login' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function ClientLoginPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-3xl font-bold">Client Login</h1>
    </div>
  );
}
