import { describe, expect, it } from 'vitest';
import { runBuiltCli } from '../helpers/run-built-cli.js';

// What the pruning keeps of a page that declares no article type (issue 35), through the built CLI
// on stdin (no network).
const sentence = (topic: string) =>
  `${topic} is told here at some length, with enough words in the paragraph for it to count as real content.`;

const read = (html: string) => runBuiltCli(['read', '-', '--format', 'text'], {}, { stdin: html });

describe('deepsearch read: sections a page links to and title bars survive the pruning (built CLI)', () => {
  it('keeps the sections a table of contents links to, and the title bars of an accordion', async () => {
    const titles = ['Menu ideas for a spring wedding', 'Share plates for the buffet'];
    const slug = (title: string) => title.toLowerCase().replaceAll(' ', '-');
    const contents = titles.map((title) => `<li><a href="#${slug(title)}">${title}</a></li>`).join('');
    const sections = titles
      .map(
        (title) =>
          `<div id="${slug(title)}"><h2>${title}</h2><p>${sentence(title)}</p><p>${sentence(`More on ${title}`)}</p></div>`,
      )
      .join('');
    const folds = ['Advantages of a car loan', 'Advantages of leasing']
      .map((title) => `<li><header><h3>${title}:</h3></header><div><p>${sentence(title)}</p></div></li>`)
      .join('');
    const run = await read(
      `<html><body><header><a href="/">Logo</a><span>Compare and save</span></header><article><h1>Catering and cars</h1><p>${sentence('The guide')}</p><ul>${contents}</ul>${sections}<ul class="folds">${folds}</ul></article></body></html>`,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('More on Menu ideas for a spring wedding');
    expect(run.stdout).toContain('Advantages of leasing:');
    expect(run.stdout).not.toContain('Compare and save');
  });

  it("reads the article, not a site's menus: a flyout alone in its box, a web component's, a mobile menu after the page longer than all of it", async () => {
    const links = (
      count: number,
      name: string,
      link = (href: string, text: string) => `<a href="${href}">${text}</a>`,
    ) =>
      Array.from(
        { length: count },
        (_, index) => `<li>${link(`/${name}/${index}`, `${name} page ${index}`)}</li>`,
      ).join('');
    const story = [
      'The new radon map',
      'Soil measurements',
      'The office',
      'Home owners',
      'Builders',
      'The survey',
      'The council',
      'Landlords',
      'Tenants',
      'The laboratory',
      'The ministry',
      'Schools',
      'Doctors',
      'The next steps',
    ]
      .map((topic) => `<p>${sentence(topic)} It was published this week.</p>`)
      .join('');
    const flyout = `<div id="n-1"><div class="menu flyout"><ul>${links(80, 'Flyout')}</ul></div></div>`;
    const component = `<pp-navigation title="Main"><pp-list>${links(80, 'Component', (href, text) => `<pp-link href="${href}"><p>${text}</p></pp-link>`)}</pp-list></pp-navigation>`;
    const mobile = `<div class="levels"><ul>${links(1500, 'Mobile')}</ul></div>`;
    const run = await read(
      `<html><body><div id="wrapper">${flyout}${component}<div id="page"><h1>Radon map published</h1>${story}</div></div>${mobile}</body></html>`,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('The next steps is told here');
    expect(run.stdout).not.toMatch(/Flyout page|Component page|Mobile page/);
  });
});
