/**
 * @module
 * English stop words dropped before BM25 and the local dense embedder: Lucene's English analyzer list plus the
 * pronouns, auxiliaries and contractions of everyday chat (NLTK's list), lower-case, apostrophes removed.
 */

export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all am an and any are aren arent as at be because been before being below " +
    "between both but by can cant could couldn couldnt d did didn didnt do does doesn doesnt doing don dont down " +
    "during each few for from further had hadn hadnt has hasn hasnt have haven havent having he her here hers " +
    "herself him himself his how i if in into is isn isnt it its itself just ll m ma me mightn more most mustn my " +
    "myself needn no nor not now o of off on once only or other our ours ourselves out over own re s same shan she " +
    "shes should shouldn shouldve so some such t than that thatll the their theirs them themselves then there these " +
    "they this those through to too under until up ve very was wasn wasnt we were weren werent what when where " +
    "which while who whom why will with won wont wouldn wouldnt y you youd youll youre youve your yours yourself " +
    "yourselves"
  ).split(" "),
);
