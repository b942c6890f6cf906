export const meta = () => [{ title: 'Admin Login' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function AdminLoginPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-3xl font-bold">Secure Admin Access</h1>
    </div>
  );
}
