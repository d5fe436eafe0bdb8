/**
 * A one-section research world for createFakeResearchWorld: one fact on one page, and the plan
 * the routed LLM answers with (schema research_plan).
 */
export const germanyFacts = [
  {
    keywords: ['germany'],
    url: 'https://stats.example/germany',
    title: 'Heat pumps in Germany',
    sentence: 'Germany sold 236,000 heat pumps in 2022, up from 86,000 in 2019.',
  },
];

export const germanyPlan = {
  schemaName: 'research_plan',
  reply: {
    title: 'Heat pumps in Germany',
    sections: [{ heading: 'Sales', questions: ['How many heat pumps did Germany sell?'] }],
    dataPoints: [],
  },
};
