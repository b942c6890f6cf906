import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { BLOG_MESSAGES } from '../../common/schemas/blog.ts';
import { PATHS } from '../../common/paths.ts';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { checkEveryLook, DESKTOP, expect, expectNoAxeViolations, signInAs, test } from './fixtures.ts';
import { testImage } from './portal-helpers.ts';

// Staff manage blog posts end to end: write with the editor, banner, draft, preview, publish,
// show/hide, delete; the question before leaving unsaved changes; two editors of one post; every
// blog screen axe-clean in both themes at phone and desktop width.

const unique = () => randomBytes(3).toString('hex');
const toastWith = (page: Page, title: string) => page.getByRole('region', { name: 'Notifications' }).locator('li').filter({ hasText: title });
const row = (page: Page, title: string) => page.getByRole('row').filter({ hasText: title });

/** A post made through the API (for the tests that start from an existing post). */
async function createPost(page: Page, title: string, over: Record<string, unknown> = {}) {
  const res = await page.request.post('/api/blog/posts', {
    headers: { origin: E2E_BASE_URL },
    data: { title, author: 'Site Team', category: 'Safety', excerpt: 'A short summary.', content: '<p>Body of the post.</p>', ...over },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).post as { _id: string; slug: string; version: number };
}

/** The editor is a chunk of its own (about 130 KB compressed): on a busy test machine it can take a while to arrive. */
async function editorReady(page: Page) {
  await expect(page.getByRole('textbox', { name: 'Content' })).toBeVisible({ timeout: 45_000 });
}

async function fillRequired(page: Page, title: string) {
  await editorReady(page);
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await page.getByRole('textbox', { name: 'Author' }).fill('Projects Team');
  await page.getByRole('combobox', { name: 'Category' }).selectOption('Marine & Logistics');
  await page.getByRole('textbox', { name: 'Excerpt' }).fill('What the crew did on the jetty this week.');
}

test('staff write a post with the editor, add a banner, save a draft, preview, publish, hide and delete it', async ({ page }) => {
  test.setTimeout(240_000);
  await signInAs(page, { role: 'admin', name: `Blog Editor ${unique()}` });
  await page.setViewportSize(DESKTOP);
  await createPost(page, `Earlier post ${unique()}`);
  await page.goto(PATHS.adminDashboard);
  await page.getByRole('link', { name: 'Blog Management' }).click();
  await expect(page).toHaveURL(PATHS.blogList);
  await expect(page.getByRole('heading', { name: 'Blog Management', level: 1 })).toBeVisible();
  for (const column of ['Title', 'Author', 'Category', 'Date', 'Status', 'Visibility', 'Actions']) {
    await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
  }

  await page.getByRole('link', { name: 'New Blog Post' }).click();
  await expect(page).toHaveURL(PATHS.blogNew);
  await expect(page.getByRole('link', { name: 'Back to Blog Management' })).toBeVisible();

  // Required fields: the first missing one is named and focused.
  await page.getByRole('button', { name: 'Create post' }).click();
  await expect(page.getByRole('textbox', { name: 'Title' })).toBeFocused();
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveAccessibleDescription('Please fill in the title field');

  const title = `Jetty piles ${unique()}`;
  await fillRequired(page, title);
  await expect(page.getByRole('textbox', { name: 'Slug (web address)' })).toHaveValue(title.toLowerCase().replace(/ /g, '-'));

  // The editor: a heading, bold text and a link, from the toolbar.
  const editor = page.getByRole('textbox', { name: 'Content' });
  await editor.click();
  await page.keyboard.type('Project update');
  await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Heading', exact: true }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('The crane is ');
  await page.getByRole('button', { name: 'Bold' }).click();
  await page.keyboard.type('ready');
  await page.getByRole('button', { name: 'Bold' }).click();
  await page.keyboard.type(' for the lift.');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Read the plan');
  await page.keyboard.press('Shift+Home');
  await page.getByRole('button', { name: 'Link' }).click();
  await page.getByRole('textbox', { name: 'Link address' }).fill('https://example.org/plan');
  await page.getByRole('button', { name: 'Apply link' }).click();
  await expect(editor.locator('h2')).toHaveText('Project update');
  await expect(editor.locator('strong')).toHaveText('ready');
  await expect(editor.locator('a[href="https://example.org/plan"]')).toHaveText('Read the plan');

  // The toolbar is one tab stop whose buttons the arrow keys walk through.
  await page.getByRole('button', { name: 'Heading', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('button', { name: 'Subheading' })).toBeFocused();

  // The banner: uploaded, previewed, replaced.
  await page.getByLabel('Upload banner').setInputFiles({ name: 'jetty.jpg', mimeType: 'image/jpeg', buffer: await testImage('jpeg', '#0b4f8a', { width: 1200, height: 675 }) });
  await expect(toastWith(page, BLOG_MESSAGES.imageUploaded.title)).toContainText(BLOG_MESSAGES.imageUploaded.description);
  await expect(page.getByRole('img', { name: 'Banner preview' })).toBeVisible();
  await page.getByLabel('Replace banner').setInputFiles({ name: 'jetty-2.png', mimeType: 'image/png', buffer: await testImage('png', '#f59e0b', { width: 800, height: 450 }) });
  await expect(toastWith(page, BLOG_MESSAGES.imageUpdated.title)).toContainText(BLOG_MESSAGES.imageUpdated.description);

  // A file that is not an image is refused by the server, with its reason.
  await page.getByLabel('Replace banner').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
  await expect(toastWith(page, BLOG_MESSAGES.uploadFailed)).toContainText('notes.png is not a JPEG, PNG, WebP or AVIF image');

  // The preview: the text as the public page will show it.
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('dialog', { name: 'Preview' });
  await expect(preview.getByRole('heading', { name: title })).toBeVisible();
  const body = preview.getByTestId('blog-preview-body');
  await expect(body.locator('h2')).toHaveText('Project update');
  await expect(body.locator('strong')).toHaveText('ready');
  await expect(body.getByRole('link', { name: 'Read the plan' })).toHaveAttribute('href', 'https://example.org/plan');
  await preview.getByRole('button', { name: 'Close dialog' }).click();

  // Saved as a draft (the default status).
  await page.getByRole('button', { name: 'Create post' }).click();
  await expect(toastWith(page, BLOG_MESSAGES.created.title)).toContainText(BLOG_MESSAGES.created.description);
  await expect(page).toHaveURL(PATHS.blogList);
  await expect(row(page, title)).toContainText('Projects Team');
  await expect(row(page, title)).toContainText('Marine & Logistics');
  await expect(row(page, title)).toContainText('Draft');

  // Edit and publish.
  await row(page, title).getByRole('link', { name: `Edit ${title}` }).click();
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue(title);
  await editorReady(page);
  await expect(page.getByRole('textbox', { name: 'Content' }).locator('strong')).toHaveText('ready');
  await page.getByRole('radio', { name: 'Published' }).check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(toastWith(page, BLOG_MESSAGES.updated.title)).toContainText(BLOG_MESSAGES.updated.description);
  await expect(page).toHaveURL(PATHS.blogList);
  await expect(row(page, title)).toContainText('Published');

  // Show/hide: saved on the server (still hidden after a reload).
  const toggle = row(page, title).getByRole('switch', { name: `Visible to visitors: ${title}` });
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect(toggle).toContainText('Hidden');
  await page.reload();
  await expect(row(page, title).getByRole('switch')).toHaveAttribute('aria-checked', 'false');

  // Search by title.
  await page.getByRole('searchbox', { name: 'Search titles' }).fill(title.split(' ')[2]);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);

  // Delete, after the confirmation (Cancel first keeps it).
  await row(page, title).getByRole('button', { name: `Delete ${title}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
  await expect(confirm).toHaveAccessibleDescription('This action cannot be undone. This will permanently delete the blog post.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(row(page, title)).toBeVisible();
  await row(page, title).getByRole('button', { name: `Delete ${title}` }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toastWith(page, BLOG_MESSAGES.deleted.title)).toContainText(BLOG_MESSAGES.deleted.description);
  await expect(row(page, title)).toHaveCount(0);
});

test('a scheduled post needs a time and shows as scheduled', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, { role: 'admin' });
  await page.setViewportSize(DESKTOP);
  await page.goto(PATHS.blogNew);
  const title = `Quay safety week ${unique()}`;
  await fillRequired(page, title);
  await page.getByRole('textbox', { name: 'Content' }).click();
  await page.keyboard.type('Starts on Monday.');
  await page.getByRole('radio', { name: 'Scheduled' }).check();
  await page.getByRole('button', { name: 'Create post' }).click();
  await expect(page.getByLabel('Publish at')).toBeFocused();
  await page.getByLabel('Publish at').fill('2031-05-04T09:30');
  await page.getByRole('button', { name: 'Create post' }).click();
  await expect(toastWith(page, BLOG_MESSAGES.created.title)).toBeVisible();
  await expect(row(page, title)).toContainText('Scheduled');
  await expect(row(page, title)).toContainText('4 May 2031');
});

test('leaving a form with unsaved changes asks first', async ({ page }) => {
  await signInAs(page, { role: 'admin' });
  await page.setViewportSize(DESKTOP);
  await page.goto(PATHS.blogList);
  await page.getByRole('link', { name: 'New Blog Post' }).click();
  // Nothing typed yet: leaving does not ask.
  await page.getByRole('link', { name: 'Back to Blog Management' }).click();
  await expect(page).toHaveURL(PATHS.blogList);

  await page.getByRole('link', { name: 'New Blog Post' }).click();
  await page.getByRole('textbox', { name: 'Title' }).fill('Half-written thoughts');
  await page.getByRole('link', { name: 'Back to Blog Management' }).click();
  const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page).toHaveURL(PATHS.blogNew);
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue('Half-written thoughts');

  // Closing the tab: the browser's own question.
  const beforeUnload = page.waitForEvent('dialog');
  void page.close({ runBeforeUnload: true });
  const dialog = await beforeUnload;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.accept();
});

test('leaving through the list link after confirming goes to the list', async ({ page }) => {
  await signInAs(page, { role: 'admin' });
  await page.setViewportSize(DESKTOP);
  await page.goto(PATHS.blogNew);
  await editorReady(page);
  await page.getByRole('textbox', { name: 'Author' }).fill('Somebody');
  // The admin navigation's link (issue 22: one navigation; it was 'Blog' in the old review menu).
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Blog management' }).click();
  await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page).toHaveURL(PATHS.blogList);
});

test('two people editing one post: the second save is refused with a clear message', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signInAs(page, { role: 'admin' });
  await page.setViewportSize(DESKTOP);
  const post = await createPost(page, `Shared post ${unique()}`);
  const other = await context.newPage();
  await other.setViewportSize(DESKTOP);
  await page.goto(PATHS.blogEdit(post._id));
  await other.goto(PATHS.blogEdit(post._id));
  await editorReady(page);
  await editorReady(other);

  await page.getByRole('textbox', { name: 'Title' }).fill('Edited by the first person');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(toastWith(page, BLOG_MESSAGES.updated.title)).toBeVisible();

  await other.getByRole('textbox', { name: 'Title' }).fill('Edited by the second person');
  await other.getByRole('button', { name: 'Save changes' }).click();
  await expect(other.getByRole('form', { name: 'Edit blog post' }).getByRole('alert')).toContainText(BLOG_MESSAGES.versionConflict);
  await expect(other).toHaveURL(PATHS.blogEdit(post._id));
  await other.getByRole('button', { name: 'Reload the post' }).click();
  await expect(other.getByRole('textbox', { name: 'Title' })).toHaveValue('Edited by the first person');
});

test('every blog screen is axe-clean in both themes at phone and desktop width', async ({ page }, testInfo) => {
  test.setTimeout(400_000);
  await signInAs(page, { role: 'admin' });
  const title = `Look check ${unique()}`;
  const post = await createPost(page, title, { status: 'published', content: '<h2>Heading</h2><p>Some <strong>bold</strong> text and <a href="https://example.org">a link</a>.</p><blockquote><p>A quote.</p></blockquote>' });
  const out = (file: string) => testInfo.outputPath(file);

  await page.goto(PATHS.blogList);
  await checkEveryLook(page, 'blog-list', out, () => expect(row(page, title)).toBeVisible());

  await row(page, title).getByRole('button', { name: `Delete ${title}` }).click();
  await expect(page.getByRole('dialog', { name: 'Are you sure?' })).toBeVisible();
  await expectNoAxeViolations(page, 'delete dialog');
  await page.screenshot({ path: out('blog-delete-dialog.png') });
  await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Cancel' }).click();

  await page.goto(PATHS.blogNew);
  await checkEveryLook(page, 'blog-new', out, () => expect(page.getByRole('toolbar', { name: 'Formatting' })).toBeVisible({ timeout: 45_000 }));

  await page.goto(PATHS.blogEdit(post._id));
  await checkEveryLook(page, 'blog-edit', out, () => expect(page.getByRole('textbox', { name: 'Content' }).locator('strong')).toHaveText('bold', { timeout: 45_000 }));

  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByTestId('blog-preview-body').locator('h2')).toHaveText('Heading');
  await expectNoAxeViolations(page, 'preview dialog');
  await page.screenshot({ path: out('blog-preview.png') });
});

test.describe('in a browser set to another time zone', () => {
  // Issue 22: staff abroad (or a laptop left on its travel zone) still read and write Lagos time.
  test.use({ timezoneId: 'America/Los_Angeles' });

  test('the list shows Lagos time and a scheduled time is read as Lagos time', async ({ page }) => {
    test.setTimeout(120_000);
    await signInAs(page, { role: 'admin' });
    await page.setViewportSize(DESKTOP);
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/Los_Angeles');
    // 23:30 UTC is 00:30 the next day in Lagos and 15:30 the same day in Los Angeles.
    const shown = `Night shift report ${unique()}`;
    await createPost(page, shown, { status: 'published', publishAt: '2026-11-20T23:30:00.000Z' });
    await page.goto(`${PATHS.blogList}?q=${encodeURIComponent(shown)}`);
    await expect(row(page, shown)).toContainText('21 Nov 2026, 00:30');

    const scheduled = `Quay opening ${unique()}`;
    await page.goto(PATHS.blogNew);
    await fillRequired(page, scheduled);
    await page.getByRole('textbox', { name: 'Content' }).click();
    await page.keyboard.type('Opens at dawn.');
    await page.getByRole('radio', { name: 'Scheduled' }).check();
    await expect(page.getByLabel('Publish at')).toHaveAccessibleDescription('The post goes out by itself at this time (Africa/Lagos time).');
    await page.getByLabel('Publish at').fill('2031-05-04T23:30');
    await page.getByRole('button', { name: 'Create post' }).click();
    await expect(toastWith(page, BLOG_MESSAGES.created.title)).toBeVisible();
    await expect(row(page, scheduled)).toContainText('4 May 2031, 23:30');
    const list = await page.request.get(`/api/blog/posts?q=${encodeURIComponent(scheduled)}`);
    const [post] = (await list.json()).posts as { publishAt: string }[];
    expect(post.publishAt).toBe('2031-05-04T22:30:00.000Z');
  });
});
