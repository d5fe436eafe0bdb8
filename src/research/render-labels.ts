/** The headings a report adds itself, in the report's language (the topic's). */
export interface ReportLabels {
  /** BCP 47 tag for the HTML page. */
  tag: string;
  summary: string;
  disagree: string;
  followUps: string;
  references: string;
  trust: string;
  chart: string;
  /** The appendix listing the pages the task chose but could not read. */
  notRead: string;
}

const english: ReportLabels = {
  tag: 'en',
  summary: 'Summary',
  disagree: 'Where sources disagree',
  followUps: 'Follow-up questions',
  references: 'References',
  trust: 'trust',
  chart: 'Chart (Mermaid source)',
  notRead: 'Pages that could not be read',
};

const byLanguage: Readonly<Record<string, ReportLabels>> = {
  English: english,
  French: {
    tag: 'fr',
    summary: 'Résumé',
    disagree: 'Où les sources divergent',
    followUps: 'Questions pour aller plus loin',
    references: 'Références',
    trust: 'confiance',
    chart: 'Graphique (source Mermaid)',
    notRead: 'Pages qui n’ont pas pu être lues',
  },
  German: {
    tag: 'de',
    summary: 'Zusammenfassung',
    disagree: 'Wo die Quellen voneinander abweichen',
    followUps: 'Weiterführende Fragen',
    references: 'Quellen',
    trust: 'Vertrauen',
    chart: 'Diagramm (Mermaid-Quelltext)',
    notRead: 'Seiten, die nicht gelesen werden konnten',
  },
  Spanish: {
    tag: 'es',
    summary: 'Resumen',
    disagree: 'Dónde discrepan las fuentes',
    followUps: 'Preguntas de seguimiento',
    references: 'Referencias',
    trust: 'confianza',
    chart: 'Gráfico (fuente Mermaid)',
    notRead: 'Páginas que no se pudieron leer',
  },
  Portuguese: {
    tag: 'pt',
    summary: 'Resumo',
    disagree: 'Onde as fontes divergem',
    followUps: 'Perguntas de acompanhamento',
    references: 'Referências',
    trust: 'confiança',
    chart: 'Gráfico (fonte Mermaid)',
    notRead: 'Páginas que não puderam ser lidas',
  },
  Italian: {
    tag: 'it',
    summary: 'Sintesi',
    disagree: 'Dove le fonti divergono',
    followUps: 'Domande di approfondimento',
    references: 'Riferimenti',
    trust: 'affidabilità',
    chart: 'Grafico (sorgente Mermaid)',
    notRead: 'Pagine che non è stato possibile leggere',
  },
  Dutch: {
    tag: 'nl',
    summary: 'Samenvatting',
    disagree: 'Waar bronnen het oneens zijn',
    followUps: 'Vervolgvragen',
    references: 'Bronnen',
    trust: 'betrouwbaarheid',
    chart: 'Grafiek (Mermaid-bron)',
    notRead: 'Pagina’s die niet gelezen konden worden',
  },
  Russian: {
    tag: 'ru',
    summary: 'Кратко',
    disagree: 'Где источники расходятся',
    followUps: 'Вопросы для продолжения',
    references: 'Источники',
    trust: 'доверие',
    chart: 'Диаграмма (исходный код Mermaid)',
    notRead: 'Страницы, которые не удалось прочитать',
  },
  Chinese: {
    tag: 'zh',
    summary: '摘要',
    disagree: '来源存在分歧之处',
    followUps: '后续问题',
    references: '参考资料',
    trust: '可信度',
    chart: '图表（Mermaid 源码）',
    notRead: '无法读取的页面',
  },
  Japanese: {
    tag: 'ja',
    summary: '要約',
    disagree: '情報源の見解が分かれる点',
    followUps: 'さらに調べたい質問',
    references: '参考文献',
    trust: '信頼度',
    chart: 'グラフ（Mermaid ソース）',
    notRead: '読めなかったページ',
  },
};

/** Labels for the report's language; English when it is unknown or not listed. */
export function reportLabels(language: string | undefined): ReportLabels {
  return (language && byLanguage[language]) || english;
}
