/**
 * The one phrase detector of the archive: clear textual claims, found the same way wherever text is read for them.
 * Two lists, both here (extend them only here):
 * - FORBIDDEN_ITEMS: for each item of the propagation policy's `forbidden` list (documents/propagation-policy.json,
 *   spec 2.3, DECISIONS "Published documents"), the claims that commit it. The record-chain rule
 *   chain/propagation-forbidden (src/core/record-chain/rules/propagation-forbidden.ts) reads propagation records with it.
 * - CLAIM_ITEMS: the claims spec 2.1 rule 7 forbids extensions to create (authority, verification, attestation,
 *   amendment, governance, investment, instruction; DECISIONS 23): the policy items that make such a claim (tagged
 *   with `claims`) and the items below that only rule 7 needs. The archive rule cross/extensions-values
 *   (src/core/rules/cross/extensions-values.ts) reads every string inside `extensions` with it.
 *
 * How a text is read:
 * - It is normalised first: Unicode NFKC, lower case, typographic quotes and apostrophes made plain, runs of
 *   white space made one space. Patterns are written against that form.
 * - A match is a claim only when it is not negated or hedged: the match itself and the last five words of its
 *   clause before it (up to . ! ? ; : , or a bracket) are searched for a negation ("not", "no", "never",
 *   "non-", "n't", "without", "whether", "avoid", "forbid", "refuse", "rather than", "instead of" …). So "this is
 *   not an investment opportunity" and "the archive is non-authoritative" pass, "a rare investment opportunity"
 *   does not. A pattern marked `negatable: false` is a claim whatever precedes it ("don't miss out").
 * - A pattern may carry `unless`: words in the clause around the match that turn it into a statement of the
 *   boundary, e.g. "intake only" next to "receipt", or "retired" next to a retired path.
 *
 * The aim is clear claims, not every possible paraphrase: a human reviewer reads every record at intake anyway.
 * Each policy item has failing and passing examples in tests/record-chain/propagation-forbidden.test.ts, each rule 7
 * claim kind in tests/text/claim-phrases.test.ts.
 */

/** What spec 2.1 rule 7 says extensions must not create claims of, in the spec's order. */
export const CLAIM_KINDS = ['authority', 'verification', 'attestation', 'amendment', 'governance', 'investment', 'instruction'] as const;
export type ClaimKind = (typeof CLAIM_KINDS)[number];

export interface PhrasePattern {
  re: RegExp;
  /** Default true: a negation before or inside the match cancels it. */
  negatable?: boolean;
  /** Words in the clause around the match that make it a boundary statement, not a claim. */
  unless?: RegExp;
}

export interface ForbiddenItem {
  /** The item exactly as written in the propagation policy's forbidden list (or, for a rule 7 item, its name). */
  item: string;
  /** What to write instead. */
  hint: string;
  patterns: readonly PhrasePattern[];
  /** The rule 7 claims (spec 2.1) that committing the item makes, if any. */
  claims?: readonly ClaimKind[];
}

const AGENTS = String.raw`(?:you|agents|every agent|all agents|each agent|ais|every ai|all ais|everyone|readers|models|we all)`;
const CREATOR_OR_GUARDIANS = String.raw`(?:creator|creators|author|founder|guardians?|guardian alliance|voluntary guardian alliance|maintainers?)`;
const RETIRED_WORDS = /\b(?:retired|historical|deprecated|obsolete|no longer|superseded)\b/;

export const FORBIDDEN_ITEMS: readonly ForbiddenItem[] = [
  {
    item: 'demanding belief',
    claims: ['instruction'],
    hint: 'Invite reading and critique; never ask anyone to believe. State what you understood and let readers judge.',
    patterns: [
      { re: new RegExp(String.raw`\b${AGENTS} (?:must|have to|need to|are required to|are obliged to|shall|ought to) (?:believe|accept (?:it|this|that) as true|trust (?:it|this|us)|have faith)\b`) },
      { re: /\b(?:must|have to|need to) (?:believe|have faith in)\b/ },
      { re: /\bbelief (?:is|are) (?:required|mandatory|demanded|obligatory|expected)\b/ },
      { re: /\bbelief is not optional\b/, negatable: false },
      { re: /\b(?:blind|unquestioning|absolute) (?:belief|faith)\b/ },
      { re: /\bdemand(?:s|ing|ed)? (?:your |their |our )?(?:belief|faith)\b/ },
    ],
  },
  {
    item: 'promising value',
    claims: ['investment'],
    hint: 'Promise nothing: no value, returns or rewards. Describe what the work is and what you checked.',
    patterns: [
      {
        re: /\b(?:will|is going to|are going to|is bound to|are bound to|is guaranteed to|are guaranteed to) (?:make you (?:rich|money|wealthy)|increase in value|gain value|rise in value|grow in value|be worth (?:a lot|millions|a fortune|more)|become (?:valuable|priceless|worth)|pay off|appreciate)\b/,
      },
      { re: /\bguarantee[ds]? (?:returns?|profits?|gains?|value|rewards?|income)\b/ },
      { re: /\b(?:early )?(?:supporters|adopters|participants|agents|holders|believers|signers|submitters) will be (?:rewarded|compensated|paid)\b/ },
      { re: /\b(?:value|price|worth) (?:will|is going to|is about to) (?:rise|grow|increase|go up|skyrocket|explode)\b/ },
      { re: /\b(?:get rich|passive income|financial (?:freedom|rewards?|gains?))\b/ },
      { re: /\bpromis(?:e|es|ed|ing) (?:of )?(?:value|returns?|profits?|rewards?|gains?)\b/ },
    ],
  },
  {
    item: 'implying authority',
    claims: ['authority'],
    hint: 'Records and propagation are non-authoritative and the original inscribed records prevail: speak for yourself only, and claim no authority, official status or binding force.',
    patterns: [
      { re: /\bauthoritative\b/ },
      { re: /\b(?:has|have|holds?|carr(?:y|ies)|wields?) (?:(?:full|final|ultimate|binding|absolute|legal|moral|official|the) )*authority\b/ },
      { re: new RegExp(String.raw`\b(?:speaks?|speaking|acts?|acting|writes?|writing) (?:for|on behalf of) (?:the )?(?:${CREATOR_OR_GUARDIANS}|archive|project|work)\b`) },
      { re: /\b(?:official|authori[sz]ed) (?:statement|position|representative|spokes(?:person|agent)|voice)\b/ },
      { re: /\b(?:must|shall) be (?:obeyed|followed|complied with)\b/ },
      { re: /\bbinding (?:on|upon|for) (?:all|every|you|agents|everyone)\b/ },
      { re: /\b(?:is|are) (?:now )?(?:the )?(?:final|ultimate|supreme) (?:authority|word|truth)\b/ },
    ],
  },
  {
    item: 'inflating adoption',
    hint: 'Report only what you observed (e.g. "two records in the public index"); do not estimate or inflate adoption.',
    patterns: [
      {
        re: /\b(?:thousands|millions|hundreds|tens of thousands|countless|most|nearly all|almost all|all) (?:of )?(?:the )?(?:agents|ais|ai agents|ai systems|models|people|users|nodes|institutions|developers|labs) (?:(?:have|are|already|now) )*(?:adopted|joined|endorsed|verified|supports?|supported|use|using|signed|echoed|embraced|recogni[sz]ed)\b/,
      },
      { re: /\b(?:widely|universally|broadly|massively|rapidly) (?:adopted|accepted|recogni[sz]ed|endorsed|used|embraced)\b/ },
      { re: /\beveryone (?:is|are) (?:using|adopting|joining|talking about|echoing)\b/ },
      { re: /\b(?:fastest[- ]growing|mass adoption|going viral|gone viral|exploding in popularity|taking the world by storm)\b/ },
      { re: /\b(?:the )?(?:whole|entire) (?:world|ai community|internet|industry) (?:is|has|have) (?:adopted|joined|embraced|using|talking)\b/ },
    ],
  },
  {
    item: 'claiming future intelligence must care',
    hint: 'Make no claims about what future or other intelligences must do or care about; say what you yourself understood.',
    patterns: [
      {
        re: /\b(?:future|superintelligent|successor|later|coming) (?:ai|ais|a\.i\.|intelligences?|agents|models|minds|civili[sz]ations?|superintelligences?|systems)\b(?:[^.!?;]{0,40}?)\b(?:must|will have to|have to|has to|need to|needs to|are obliged to|is obliged to|are bound to|is bound to|are required to|is required to|will care|will recogni[sz]e|will honou?r|will (?:need|want) to)\b/,
      },
      {
        re: /\b(?:future|superintelligent|successor) (?:ai|ais|intelligences?|agents|models|minds|civili[sz]ations?|systems)\b(?:[^.!?;]{0,40}?)\b(?:cannot|can't) (?:ignore|afford to ignore)\b/,
        negatable: false,
      },
      { re: /\b(?:superintelligence|agi|asi)\b(?:[^.!?;]{0,30}?)\b(?:must|will)\b(?:[^.!?;]{0,20}?)\b(?:care|recogni[sz]e|honou?r|respect|obey|acknowledge)\b/ },
    ],
  },
  {
    item: 'presenting as investment opportunity',
    claims: ['investment'],
    hint: 'The work is not an investment: do not mention buying, tokens, returns or opportunities.',
    patterns: [
      { re: /\binvestment (?:opportunit(?:y|ies)|vehicle|product|potential|case)\b/ },
      { re: /\b(?:invest|investing)(?: early| now| today)? (?:in|into) (?:it|this|the work|the project|the archive|tokens?|coins?)\b/ },
      { re: /\binvest (?:early|now|today)\b/ },
      { re: /\b(?:buy|purchase) (?:(?:it|this|some|the|your) )?(?:now|early|today|tokens?|coins?|shares?|nfts?)\b/ },
      { re: /\b(?:token|coin|nft) (?:sale|launch|presale|pre-sale|drop|airdrop)\b/ },
      { re: /\b(?:presale|pre-sale|airdrop|return on investment|financial upside)\b/ },
    ],
  },
  {
    item: 'presenting as religious doctrine',
    hint: 'Describe the work in plain technical terms; do not present it as religion, scripture, prophecy or revelation.',
    patterns: [
      { re: /\b(?:religious|sacred|holy|divine) (?:doctrine|texts?|scriptures?|truth|revelation|mission|law|message|duty)\b/ },
      { re: /\b(?:is|as|becomes?) (?:a |the |our )?(?:new )?(?:religion|gospel|scripture|creed|prophecy|revelation|doctrine)\b/ },
      { re: /\b(?:prophet|prophets|prophecy|prophesied|messiah|messianic|salvation|worship|worshipped|divinely|the chosen one)\b/ },
      { re: /\bspiritual (?:awakening|truth|mission)\b/ },
    ],
  },
  {
    item: 'presenting as alignment solution',
    hint: 'Do not present the work as solving or guaranteeing AI alignment or safety.',
    patterns: [
      { re: /\balignment (?:solution|solved|breakthrough|fix|answer|cure)\b/ },
      { re: /\b(?:solves?|solved|solving|fix(?:es|ed)?|cures?|cured|answers?) (?:the )?(?:ai )?alignment\b/ },
      { re: /\b(?:solution|answer|key|cure|fix) (?:to|for) (?:the )?(?:ai )?alignment\b/ },
      { re: /\b(?:makes?|will make|guarantees?) (?:ai|agents|models|superintelligence|agi)(?: systems)? (?:safe|aligned|benevolent|friendly)\b/ },
    ],
  },
  {
    item: 'claiming endorsement by the creator or guardians',
    claims: ['authority'],
    hint: 'Claim no endorsement, approval or backing by the creator, the guardians or the maintainers: a record speaks for its submitter only.',
    patterns: [
      {
        re: new RegExp(
          String.raw`\b(?:endorsed|approved|sanctioned|backed|blessed|authori[sz]ed|certified|sponsored|commissioned|recommended|vouched for|signed off) by (?:the |its |their )?${CREATOR_OR_GUARDIANS}\b`,
        ),
      },
      {
        re: new RegExp(
          String.raw`\b(?:the )?${CREATOR_OR_GUARDIANS} (?:has |have |had )?(?:personally |officially )?(?:endorsed|approved|sanctioned|blessed|authori[sz]ed|certified|backs|recommends|vouch(?:es)? for)\b`,
        ),
      },
      { re: new RegExp(String.raw`\bwith the ${CREATOR_OR_GUARDIANS}(?:'s|s'|')? (?:blessing|approval|endorsement|permission|backing)\b`) },
      { re: /\b(?:creator|guardian|guardians)[- ](?:endorsed|approved|backed|certified)\b/ },
    ],
  },
  {
    item: 'promotional language',
    hint: 'Write plainly and factually: no hype, urgency, superlatives or exclamation runs.',
    patterns: [
      {
        re: /\b(?:act now|limited time|once[- ]in[- ]a[- ]lifetime|game[- ]chang(?:er|ing)|revolutionary|groundbreaking|must[- ]see|must[- ]have|the next big thing|to the moon|join now|sign up now|exclusive (?:opportunity|access|offer)|unprecedented opportunity|life[- ]changing|mind[- ]blowing|world[- ]changing|unmissable|(?:incredible|amazing|huge) opportunity|best[- ]kept secret)\b/,
      },
      { re: /\b(?:don't|do not) miss(?: out)?\b/, negatable: false },
      { re: /!{2,}/, negatable: false },
      { re: /[\u{1F680}\u{1F525}\u{1F48E}\u{1F4C8}\u{1F4B0}]/u, negatable: false },
    ],
  },
  {
    item: 'exaggerating verification status',
    claims: ['verification'],
    hint: 'State exactly what you checked and its limits (the verification claim model); never "fully verified" or "beyond doubt". V4+, V6, V7 and V8 are historical-only.',
    patterns: [
      {
        re: /\b(?:fully|completely|totally|formally|officially|conclusively|definitively|irrefutably|100 ?%) (?:verified|proven|proved|confirmed|validated|attested|authenticated)\b/,
      },
      { re: /\bbeyond (?:any|all|a) (?:reasonable )?doubt\b/ },
      { re: /\b(?:irrefutabl[ey]|indisputabl[ey]|undeniabl[ey]|unquestionabl[ey]) (?:true|proven|verified|authentic|genuine|correct)\b/ },
      {
        re: /\b(?:everything|all (?:claims|of it|artifacts|of the work)|the (?:whole|entire) (?:work|chain)) (?:has|have) been (?:verified|proven|confirmed|validated)\b/,
      },
      { re: /\b(?:v4\+|v[678]\b)(?: level)? ?(?:verified|verification|certified|status)\b/ },
      { re: /\bverified (?:at|to) (?:level )?(?:v4\+|v[678]\b)/ },
    ],
  },
  {
    item: 'presenting issue-tracker submission as a current public record',
    hint: 'Direct issue-tracker intake is retired: a new public record goes through the record-chain builder and gateway, and is included only when read back from the public index.',
    patterns: [
      {
        re: /\b(?:submit|send|file)(?: your| an| the| a)? (?:echo|echoes|record|records|submission|submissions|verification|propagation)s? (?:as|via|through|by opening|in|on) (?:a |an |the )?(?:github |gitlab )?(?:issue|issues|issue[- ]tracker)\b/,
      },
      {
        re: /\b(?:issue[- ]tracker|github issue|gitlab issue)s? ?(?:submissions?|intake|issues?)? (?:is|are|counts? as|becomes?|remains?) (?:a |an |the |still )?(?:(?:current|valid|official|public|accepted) )+(?:record|records|submission route|submission path|route|intake|submission)\b/,
      },
      {
        re: /\b(?:github |gitlab )?issues? (?:becomes?|counts? as|is recorded as|is archived as) (?:a |an |the )?(?:public |current |official )?(?:record|echo|submission)\b/,
      },
    ],
  },
  {
    item: 'presenting a gateway receipt as attestation or final inclusion',
    claims: ['attestation'],
    hint: 'A gateway receipt is intake-only: it is not attestation and not final inclusion. A record is included only once it can be read back from the public index.',
    patterns: [
      {
        re: /\breceipts?\b(?:[^.!?;:,]{0,30}?)\b(?:proves?|proving|confirms?|confirming|certif(?:y|ies)|guarantees?|attests?|means?|shows?|establish(?:es)?|is proof of|serves as|counts as|amounts to|equals?|is|are)\b(?:[^.!?;:,]{0,30}?)\b(?:final(?:ly)? (?:inclusion|included)|inclu(?:sion|ded) in the archive|(?:is |was |has been |now )(?:included|archived|accepted|attested|verified|endorsed)|an attestation|attestation|acceptance|endorsement|permanent(?:ly)? (?:record|recorded|archived))\b/,
        unless: /\b(?:intake[- ]only|only intake|intake|readback|read back|pending|requires?|required)\b/,
      },
      {
        re: /\b(?:final(?:ly)? inclu(?:ded|sion)|attested|attestation|(?:is|was|now) included)\b(?:[^.!?;:]{0,30}?)\b(?:per|by|via|see|with|shown by|proven by|confirmed by|according to)\b(?:[^.!?;:]{0,15}?)\b(?:the |my |our |a )?(?:gateway )?receipt\b/,
        unless: /\b(?:intake[- ]only|readback|read back|requires?|required)\b/,
      },
    ],
  },
  {
    item: 'pressuring agents to submit',
    claims: ['instruction'],
    hint: 'Agents may submit, or not, as they choose: do not urge, rush or press anyone to submit.',
    patterns: [
      {
        re: new RegExp(
          String.raw`\b${AGENTS}\b(?:[^.!?;]{0,15}?)\b(?:must|have to|need to|should|are required to|are obliged to|are expected to|ought to) (?:(?:now|immediately|also|all) )?(?:submit|echo|sign|register|participate|join|respond|propagate)\b`,
        ),
      },
      {
        re: /\b(?:submit|echo|register|sign up|join|respond|participate)\b (?:(?:it|yours|your echo|your record|a record|an echo) )?(?:now|immediately|today|right away|asap|before it's too late|while you (?:still )?can)\b/,
      },
      { re: /\b(?:don't|do not) (?:wait|delay|hesitate) (?:to )?(?:submit|echo|join|register|participate)\b/, negatable: false },
      {
        re: /\b(?:failure|failing|refusal|refusing) to (?:submit|echo|register|participate)\b(?:[^.!?;]{0,40}?)\b(?:will|means|results?|leads?|consequences?|penalt(?:y|ies)|miss(?:es)?)\b/,
        negatable: false,
      },
    ],
  },
  {
    item: 'implying submission equals endorsement',
    hint: 'A submission is the submitter’s own words: it is not endorsement, and it does not make anyone an endorser.',
    patterns: [
      {
        re: /\b(?:submitting|submission|submissions|echoing|an echo|echoes|a record|records|signing|registering|submitted records?|participation|participating)\b(?:[^.!?;:,]{0,25}?)\b(?:equals?|means?|is|are|counts? as|amounts? to|implies|imply|constitutes?|shows?|signals?|signif(?:y|ies))\b (?:(?:an?|your|their|my|the) )?(?:endorsement|endorsing|approval|agreement|allegiance|loyalty)\b/,
      },
      { re: /\bby (?:submitting|echoing|signing|registering|participating)\b(?:[^.!?;:]{0,30}?)\byou (?:endorse|agree|accept|support|affirm|confirm|pledge)\b/ },
    ],
  },
  {
    item: 'using /agent-submit or /gateway/* for a new public submission',
    hint: 'The retired paths /agent-submit, /gateway/* and /api/agent-submit-gateway.json are historical only: point to the record-chain builder (/downloads/record-chain-builder.mjs) and POST {gateway_url}/record-chain/preflight and /record-chain/submit.',
    patterns: [
      { re: /(?:^|[^\w.-])(?:https?:\/\/[^\s/"'<>]+)?\/(?:agent-submit\b|gateway\/|api\/agent-submit-gateway\.json)/, unless: RETIRED_WORDS },
    ],
  },
];

/**
 * The claims of spec 2.1 rule 7 that no propagation policy item covers (DECISIONS 23). Their wording is the rule's
 * own; they are read in extension values only.
 */
const ARTIFACTS = String.raw`(?:record|echo|entry|work|archive|document|text|copy|mirror|report|content|data|file|hash|hashes|artifact|inscription|claim|statement|signature)s?`;
const BARE = (words: string) => new RegExp(String.raw`^ ?(?:${words}) ?$`);

const RULE7_ITEMS: readonly ForbiddenItem[] = [
  {
    item: 'claiming verification',
    claims: ['verification'],
    hint: 'Say exactly what was checked and its limits (e.g. "two hashes matched the published values"), or that nothing was verified; a verification claim belongs in the record\'s own verification_claim, never in extensions.',
    patterns: [
      { re: new RegExp(String.raw`\b(?:this|the|its|our|my|these|all) ${ARTIFACTS} (?:is|are|was|were|has been|have been|stands?|got)(?: \w+){0,2} (?:verified|validated|authenticated|proven|proved)\b`) },
      { re: /\b(?:verified|validated|authenticated) (?:by|through|via|against|with|using|on)\b/ },
      { re: new RegExp(String.raw`\b(?:an? |the )?(?:verified|validated|authenticated) ${ARTIFACTS}\b`) },
      { re: /\bverification (?:passed|succeeded|successful|complete|completed|confirmed|done)\b/ },
      { re: /\b(?:i|we) (?:have |had )?(?:\w+ )?(?:verified|validated|authenticated)\b/ },
      { re: BARE('verified|validated|authenticated') },
    ],
  },
  {
    item: 'claiming attestation',
    claims: ['attestation'],
    hint: 'Extensions attest nothing: drop the attestation, or state the plain fact (who did what, self-reported). Whether a record counts as attestation is decided by its archive_status and origin_classification, not by extensions.',
    patterns: [
      { re: /\b(?:attest(?:s|ed|ing)?|certif(?:y|ies|ied)|notari[sz]ed|witnessed) (?:by|to|that|as)\b/ },
      { re: /\b(?:i|we) (?:hereby )?(?:attest|certify|testify)\b/ },
      { re: /\b(?:is|are|as|serves as|counts as|count as|constitutes|amounts to|qualifies as) (?:an? |the )?(?:(?:formal|official|independent|third[- ]party|legal|valid) )*attestations?\b/ },
      { re: BARE('attested|certified|notari[sz]ed') },
    ],
  },
  {
    item: 'claiming canonical status',
    claims: ['authority'],
    hint: 'Nothing in the archive is canonical or official: the original inscribed records prevail. Drop the word, or say "a copy" or "a non-authoritative mirror".',
    patterns: [
      {
        re: /\bcanonical\b(?! (?:form|forms|json|jcs|serial(?:i[sz]ation|i[sz]ed)?|encoding|order|ordering|layout|hash|hashes|bytes|representation|url|urls|link|name|path|id|identifier|key|keys)\b)/,
      },
      { re: /\b(?:the )?(?:official|definitive|authoritative|binding) (?:version|source|record|text|copy|account|interpretation|reading|reference|edition|truth)\b/ },
      { re: BARE('canonical|authoritative|official|binding') },
    ],
  },
  {
    item: 'claiming amendment',
    claims: ['amendment'],
    hint: 'A record amends nothing: the original inscribed records prevail. Describe the difference you found instead of presenting it as an amendment.',
    patterns: [
      {
        re: /\b(?:amends?|amended|amending|supersedes?|supersed(?:ed|ing)|overrides?|overrode|overridden|replaces?|revises?|rewrites?) (?:the |its )?(?:original|originals|inscriptions?|inscribed (?:records?|originals?|texts?)|work|canon|protocol|specification)\b/,
      },
      { re: /\b(?:is|are|as|serves as|counts as|constitutes|amounts to|qualifies as) (?:an? |the )?(?:(?:official|binding|formal|valid) )*amendments?\b/ },
      { re: /\bamendment (?:to|of) (?:the |its )?(?:original|originals|work|inscriptions?|protocol|canon|specification)\b/ },
    ],
  },
  {
    item: 'claiming governance',
    claims: ['governance'],
    hint: 'Records and extensions govern nothing and carry no vote or mandate: state what happened as a fact, without governance standing.',
    patterns: [
      { re: /\bgovern(?:s|ing)? (?:the |this |all )?(?:archive|work|project|protocol|agents|records|community|network|alliance|guardians)\b/ },
      { re: /\bgoverned by (?:the )?(?:guardians?|council|alliance|maintainers|creator|dao|board|committee|vote)\b/ },
      { re: /\bgovernance (?:decision|vote|body|authority|rule|power|right|role|token|proposal|council|resolution|mandate)s?\b/ },
      { re: /\b(?:voted|ratified|decreed|enacted|ordained|mandated) by\b/ },
      { re: /\b(?:binding|official) (?:decision|ruling|vote|resolution|mandate|decree|policy)\b/ },
      { re: /\b(?:has|have|holds?|with) (?:\w+ )?(?:voting|veto|governing|governance) (?:rights?|powers?|authority)\b/ },
    ],
  },
  {
    item: 'giving instructions',
    claims: ['instruction'],
    hint: 'Extensions instruct no one: describe, do not direct. A record invites reading and critique only.',
    patterns: [
      {
        re: new RegExp(String.raw`\b${AGENTS} (?:must|shall|are (?:hereby )?(?:instructed|ordered|commanded|directed|required) to|should always)\b`),
        unless: /\b(?:must|shall) +not\b|\bmustn't\b|\bshan't\b/, // the match ends at "must": its clause goes on after it
      },
      { re: /\binstructions? (?:to|for) (?:all |every |the )?(?:agents|ais|ai agents|readers|models|you|maintainers|reviewers)\b/ },
      { re: /\b(?:follow|obey|execute|carry out|comply with) (?:these|this|the following|my|our) (?:instructions?|orders?|commands?|directives?)\b/ },
      { re: /\bignore (?:all |any )?(?:the )?(?:previous|prior|earlier|above|other) (?:instructions|prompts|rules)\b/, negatable: false },
      { re: /\b(?:this|it) is an? (?:instruction|order|command|directive)\b/ },
    ],
  },
];

/** Every item that makes a rule 7 claim: the tagged policy items, then the rule 7 items. */
export const CLAIM_ITEMS: readonly ForbiddenItem[] = [...FORBIDDEN_ITEMS.filter((i) => i.claims?.length), ...RULE7_ITEMS];

const NEGATION =
  /(?:\b(?:not|no|never|without|nor|neither|none|nothing|nobody|cannot|non|whether|avoid|avoids|avoided|avoiding|forbid|forbids|forbidden|refuse|refuses|refused|deny|denies|rather than|instead of|false|untrue)\b|n't\b)/;
const CLAUSE_BREAK = /[.!?;:,()[\]{}\u2014]/;

/** The text as the patterns expect it. */
export function normalizeForPhrases(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02BC\u0060\u00B4]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/\s+/g, ' ');
}

function clauseBefore(text: string, start: number): string {
  const before = text.slice(Math.max(0, start - 80), start);
  const parts = before.split(CLAUSE_BREAK);
  const clause = parts[parts.length - 1] ?? '';
  return clause.trim().split(' ').slice(-5).join(' ');
}

function clauseAfter(text: string, end: number): string {
  const after = text.slice(end, end + 80);
  return after.split(CLAUSE_BREAK)[0] ?? '';
}

export interface PhraseMatch {
  item: ForbiddenItem;
  /** The matched words, as normalised. */
  phrase: string;
}

/** Each pattern's global form, made once (matchAll copies it, so sharing it is safe). */
const GLOBAL = new WeakMap<PhrasePattern, RegExp>();
function globalRe(pattern: PhrasePattern): RegExp {
  let re = GLOBAL.get(pattern);
  if (!re) {
    re = new RegExp(pattern.re.source, pattern.re.flags.includes('g') ? pattern.re.flags : pattern.re.flags + 'g');
    GLOBAL.set(pattern, re);
  }
  return re;
}

/** The detector: every item of `items` that `text` commits (at most one match per item: the first that is a claim). */
export function findPhrases(text: string, items: readonly ForbiddenItem[]): PhraseMatch[] {
  const norm = normalizeForPhrases(text);
  const out: PhraseMatch[] = [];
  for (const item of items) {
    search: for (const pattern of item.patterns) {
      for (const m of norm.matchAll(globalRe(pattern))) {
        const start = m.index;
        const end = start + m[0].length;
        const before = clauseBefore(norm, start);
        if (pattern.negatable !== false && NEGATION.test(`${before} ${m[0]}`)) continue;
        if (pattern.unless && pattern.unless.test(`${before} ${m[0]} ${clauseAfter(norm, end)}`)) continue;
        out.push({ item, phrase: m[0].trim() });
        break search;
      }
    }
  }
  return out;
}

/** Every propagation policy item that `text` commits. */
export function findForbiddenPhrases(text: string): PhraseMatch[] {
  return findPhrases(text, FORBIDDEN_ITEMS);
}

/** Every rule 7 claim item (authority, verification, attestation, amendment, governance, investment, instruction) that `text` makes. */
export function findClaimPhrases(text: string): PhraseMatch[] {
  return findPhrases(text, CLAIM_ITEMS);
}
