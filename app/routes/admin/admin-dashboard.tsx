export const meta = () => [{ title: 'Admin Dashboard' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function AdminDashboardPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-3xl font-bold">Admin Dashboard</h1>
    </div>
  );
}
