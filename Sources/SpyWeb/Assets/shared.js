// Shared by the player page (app.js) and the board (board.js): the words of both languages, the link to the
// host with its reconnection, and small DOM helpers. No framework, no build step: the host serves this file as is.
"use strict";

// Every sentence the pages show, in Traditional Chinese and English. Wording follows the terminal client
// (Sources/spy-client/Strings.swift) so a table mixing both clients reads the same words.
const STRINGS = {
  zh: {
    title: "誰是臥底",
    boardTitle: "誰是臥底 · 看板",
    switchTo: "English",
    switchLabel: "Switch to English",
    room: (code) => `房間 ${code}`,
    game: (n) => `第${n}局`,
    round: (n) => `第${n}輪`,
    roundFolded: (n, count) => `第${n}輪 · ${count} 則描述`,
    phase: { lobby: "大廳", describing: "描述中", voting: "投票中", guessing: "白板猜詞", gameOver: "遊戲結束" },
    seconds: (n) => `${n}秒`,
    absentTimer: (n) => `離線 ${n}秒`,
    timeLeft: (n) => `剩 ${n} 秒`,
    you: "你",
    away: "離線",
    out: "出局",
    bot: "電腦",
    owner: "房主",
    voted: "已投",
    turnMark: "描述中",
    points: (n) => `${n}分`,
    role: { civilian: "平民", spy: "臥底", blank: "白板" },
    link: {
      connecting: "連線中…",
      connected: "已連線",
      reconnecting: (n) => `斷線，重連中(${n})…`,
      closed: "已斷線",
    },
    // Joining
    joinHeading: "加入遊戲",
    nameLabel: "你的名字",
    nameHint: "最多 16 格寬（中文字算兩格），空白就用座位的預設名字",
    roomLabel: "房間代碼",
    roomHint: "4 個英文字母，主機有好幾個房間時才需要",
    passwordLabel: "房間密碼",
    join: "加入",
    create: "開新房間",
    createQuestion: "開一個只有你的新房間？朋友要輸入新房間的代碼才能加入。要加入大家的房間請按「取消」再按「加入」。",
    createYes: "開新房間",
    roomYouOpened: (code) => `這是你開的新房間 ${code}：朋友要輸入這個代碼才能加入`,
    defaultName: (n) => `玩家${n}`,
    replacedHere: "你的座位現在在別的分頁或裝置上。要在這裡繼續玩，按「在這裡玩」。",
    playHere: "在這裡玩",
    nameTakenTry: (name) => `這個名字已經有人用了，換成「${name}」可以嗎？`,
    // Word
    wordHeading: "你的詞",
    actionHeading: "現在要做的事",
    yourWord: (w) => `你的詞：${w}`,
    youAreBlank: "你是白板",
    hideWord: "記住了，藏起來",
    forgot: "忘詞",
    forgotHint: "按住「忘詞」看你的詞，放開就藏起來",
    noWordYet: "還沒發詞",
    // Lobby and settings
    settingsHeading: "設定",
    waitingForStart: "等房主開始遊戲",
    ownerCanStart: "人到齊了就按「開始遊戲」（至少 4 人）",
    start: "開始遊戲",
    playAgain: "再來一局",
    settingLabels: {
      maxPlayers: "座位數（4–20）",
      spies: "臥底人數",
      blank: "有白板",
      blankRule: "白板規則",
      spyWin: "臥底勝",
      clueMode: "描述方式",
      turnSeconds: "發言秒數（0 不計時，10–600）",
      voteSeconds: "投票秒數（0 不計時，10–600）",
      tieRule: "平票",
      revealOut: "出局時公開身分",
      language: "詞的語言",
      allowParty: "可以抽到派對（成人）詞",
      categories: "分類（用逗號分開，空白＝全部）",
    },
    clueMode: { spoken: "口述", typed: "打字" },
    tieRule: { pk: "PK", nobody: "無人出局", random: "隨機" },
    blankRule: { survive: "存活", guess: "猜詞" },
    spyWin: { three: "剩3人", parity: "人數相當" },
    language: { "zh-TW": "中文", en: "English", both: "中英都有" },
    settingsLine: (s, L) =>
      [
        `臥底${s.spies}`,
        s.blank ? `白板(${L.blankRule[s.blankRule]})` : "無白板",
        L.clueMode[s.clueMode],
        s.turnSeconds === 0 && s.voteSeconds === 0 ? "無計時" : `發言${s.turnSeconds}秒 投票${s.voteSeconds}秒`,
        `平票：${L.tieRule[s.tieRule]}`,
        `臥底勝：${L.spyWin[s.spyWin] || s.spyWin}`,
      ].join(" · "),
    // What to do now
    yourTurnSpoken: "輪到你了：說出你的描述，說完按「說完了」",
    yourTurnTyped: "輪到你了：輸入你的描述送出，或跳過",
    done: "說完了",
    pass: "跳過",
    send: "送出",
    clueLabel: "描述",
    turnOf: (name) => `輪到 ${name} 描述`,
    pickVote: "選一位投出局",
    voteFor: (seat, name) => `投 ${seat} 號 ${name} 出局`,
    ballot: (name) => `你投了 ${name}（可改票）`,
    votedAlready: "你已經投票了（可改票）",
    waitVote: "等待其他人投票",
    youAreOut: "你已出局，看大家玩吧",
    notDealt: "這局沒有你，下一局再加入",
    sittingOut: "這局沒發詞",
    watchingToJoin: "遊戲進行中：這局結束就會自動讓你加入。座位不見了？在你的名字旁按「是我」。",
    thatsMe: "是我",
    thatsMeName: (name) => `我是 ${name}：請房主讓我拿回這個座位`,
    claimPending: (seat) => (seat ? `正在請房主讓你拿回 ${seat} 號座位…` : "正在請房主讓你拿回座位…"),
    claimQuestion: (name, seat) => `${name} 想拿回 ${seat} 號座位，讓他回來嗎？`,
    claimAllow: "讓他回來",
    claimDeny: "不要",
    newOwner: (name) => `${name} 現在是房主`,
    youAreOwner: "你現在是房主",
    yourGuess: "你被投出局了：猜猜平民的詞",
    guessLabel: "猜詞",
    guessOf: (name) => `${name} 正在猜平民的詞`,
    confirmVote: (name) => `確定要讓${name}出局嗎？`,
    confirmVoteYes: "滾吧！",
    confirmVoteNo: "先放過他",
    confirmKick: (name) => `確定要把 ${name} 請出房間嗎？`,
    kick: "踢人",
    kickName: (name) => `把 ${name} 踢出房間`,
    kickYes: "請出去",
    cancel: "取消",
    leave: "離開房間",
    confirmLeave: "遊戲進行中，確定離開並放棄座位嗎？",
    confirmLeaveNoGame: "確定離開並放棄座位嗎？",
    leaveYes: "離開",
    stay: "留下",
    // Sections
    seatsHeading: "座位",
    cluesHeading: "描述",
    eventsHeading: "紀錄",
    resultHeading: "結果",
    noClues: "還沒有人描述",
    spokenClue: "（口述）",
    passed: "（跳過）",
    // Game over
    winner: { civilians: "平民獲勝！", spies: "臥底獲勝！", blank: "白板獲勝！" },
    civilianWord: "平民詞",
    spyWord: "臥底詞",
    words: (c, s) => `平民詞：${c}  臥底詞：${s}`,
    scores: "分數",
    // Log lines
    joined: (name) => `${name} 加入了`,
    left: (name) => `${name} 離開了`,
    wentAway: (name) => `${name} 離線了（座位保留）`,
    back: (name) => `${name} 回來了`,
    settingsChanged: (line) => `設定：${line}`,
    gameStarted: (n) => `第${n}局開始，詞已發出`,
    turnEvent: (who, isMe, pk) => {
      const w = isMe ? "你" : who;
      return pk ? `PK：輪到 ${w} 再描述` : `輪到 ${w}`;
    },
    clueEvent: (name, text) => (text === undefined ? `${name} 說完了` : `${name}：${text}`),
    votingOpened: (pk) => (pk ? "PK 投票開始" : "投票開始"),
    tally: (name, voters) => `${name} ← ${voters}`,
    votedOut: (name, role) => (role ? `${name} 出局，身分是${role}` : `${name} 出局`),
    pkEvent: (names) => `平票！${names} 進入 PK`,
    nobodyOut: "這輪沒有人出局",
    blankGuess: (name, guess) => `${name} 猜：${guess}`,
    reveal: (name, role, word) => `${name}：${role}` + (word === undefined ? "" : `（${word}）`),
    reconnected: "已重新連線",
    lostHost: "和主機的連線斷了，重連中…",
    connectionClosed: "連線已結束",
    list: (names) => (names.length === 0 ? "—" : names.join("、")),
    bye: {
      host_closing: "主機關閉了",
      room_closed: "房間關閉了",
      left: "你離開了房間",
      other: (r) => `主機結束連線：${r}`,
    },
    problem: {
      clue_has_word: "描述裡不能有你的詞，換個說法",
      bad_clue: "描述要 1 到 100 字，不能有控制字元",
      not_your_turn: "還沒輪到你",
      self_vote: "不能投自己",
      bad_target: "不能選這個人",
      not_owner: "只有房主能這樣做",
      wrong_phase: "現在不能這樣做",
      not_playing: "你不在這局遊戲中",
      too_few_players: "至少要 4 個人才能開始",
      // With the numbers the host sends (`need`, `have`).
      too_few_players_count: (need, have) =>
        `要 ${need} 個人才能開始，現在 ${have} 人` + (need > 4 ? "（有白板時平民要過半）" : ""),
      too_many_spies: "臥底太多了，這桌人數放不下",
      bad_settings: "設定超出範圍",
      room_full: "房間滿了",
      game_in_progress: "遊戲進行中，等這局結束再加入",
      name_taken: "這個名字已經有人用了",
      bad_name: "名字要 1 到 16 格寬，不能有控制字元",
      wrong_password: "房間密碼不對",
      room_not_found: "沒有這個房間代碼",
      room_required: "主機有好幾個房間，請輸入房間代碼",
      protocol_version: "主機的版本和這個網頁不合",
      kicked: "房主把你請出房間了",
      replaced: "你的座位在別的分頁或裝置重新連上了",
      host_closing: "主機關閉了",
      bad_token: "舊座位已失效，請重新加入",
      too_many_rooms: "主機不能再開新房間了",
      too_many_connections: "主機的連線已滿，稍後再試",
      idle_timeout: "太久沒有回應，重新連線中",
      slow_consumer: "連線太慢，重新連線中",
      too_many_errors: "出錯太多次，重新連線中",
      bad_message: "主機看不懂這個動作",
      internal: "主機出了點問題，什麼都沒改變",
      claim_invalid: "這個座位不能拿回",
      claim_unavailable: "現在桌上沒有人能讓你回來，等一下再試",
      claim_busy: "已經有人在要這個座位了",
      claim_refused: "房間沒有讓你拿回這個座位",
      not_allowed: "你不能這樣做",
    },
    // Board
    joinWithPhone: "用手機或電腦加入",
    scanOrOpen: "掃描 QR 碼，或在瀏覽器打開：",
    openInBrowser: "在瀏覽器打開：",
    showBoard: "顯示看板",
    bankCategories: "題庫的分類（勾選的才會抽，都不勾＝全部）",
    pairsIn: (name, n) => `${name}（${n}）`,
    boardWatching: "看板只顯示公開的資訊，不會顯示任何人的詞",
    lastResult: "上一輪投票",
    phaseNow: "現在",
  },
  en: {
    title: "Who Is the Spy",
    boardTitle: "Who Is the Spy · Board",
    switchTo: "中文",
    switchLabel: "切換成中文",
    room: (code) => `Room ${code}`,
    game: (n) => `Game ${n}`,
    round: (n) => `Round ${n}`,
    roundFolded: (n, count) => `Round ${n} · ${count} clue${count === 1 ? "" : "s"}`,
    phase: {
      lobby: "Lobby",
      describing: "Describing",
      voting: "Voting",
      guessing: "Blank guesses",
      gameOver: "Game over",
    },
    seconds: (n) => `${n}s`,
    absentTimer: (n) => `away ${n}s`,
    timeLeft: (n) => `${n} s left`,
    you: "you",
    away: "away",
    out: "out",
    bot: "bot",
    owner: "owner",
    voted: "voted",
    turnMark: "describing",
    points: (n) => `${n} pt`,
    role: { civilian: "civilian", spy: "spy", blank: "blank" },
    link: {
      connecting: "connecting…",
      connected: "connected",
      reconnecting: (n) => `reconnecting (${n})…`,
      closed: "disconnected",
    },
    joinHeading: "Join the game",
    nameLabel: "Your name",
    nameHint: "At most 16 columns (a Chinese character counts two); empty for the seat's default name",
    roomLabel: "Room code",
    roomHint: "4 letters; needed only when the host runs several rooms",
    passwordLabel: "Room password",
    join: "Join",
    create: "Open a new room",
    createQuestion:
      "Open a new room with only you in it? Friends will need its code to join. To join everyone's room, cancel and press Join.",
    createYes: "Open a new room",
    roomYouOpened: (code) => `You opened this new room, ${code}: friends join with this code`,
    defaultName: (n) => `Player ${n}`,
    replacedHere: "Your seat is now open in another tab or device. To go on playing here, press Play here.",
    playHere: "Play here",
    nameTakenTry: (name) => `That name is taken. How about “${name}”?`,
    wordHeading: "Your word",
    actionHeading: "What to do now",
    yourWord: (w) => `Your word: ${w}`,
    youAreBlank: "You are the blank",
    hideWord: "Got it, hide it",
    forgot: "Forgot",
    forgotHint: "Hold “Forgot” to see your word; let go to hide it",
    noWordYet: "No word dealt yet",
    settingsHeading: "Settings",
    waitingForStart: "Waiting for the owner to start",
    ownerCanStart: "Press Start when everyone is here (4 players or more)",
    start: "Start",
    playAgain: "Play again",
    settingLabels: {
      maxPlayers: "Seats (4–20)",
      spies: "Spies",
      blank: "Blank player",
      blankRule: "Blank rule",
      spyWin: "Spies win",
      clueMode: "Clues",
      turnSeconds: "Turn seconds (0 untimed, 10–600)",
      voteSeconds: "Vote seconds (0 untimed, 10–600)",
      tieRule: "Tie",
      revealOut: "Reveal who is voted out",
      language: "Word language",
      allowParty: "Allow party (adult) pairs",
      categories: "Categories (comma-separated, empty for all)",
    },
    clueMode: { spoken: "spoken", typed: "typed" },
    tieRule: { pk: "PK", nobody: "nobody out", random: "random" },
    blankRule: { survive: "survive", guess: "guess" },
    spyWin: { three: "at 3 left", parity: "at parity" },
    language: { "zh-TW": "Chinese", en: "English", both: "both" },
    settingsLine: (s, L) =>
      [
        `spies ${s.spies}`,
        s.blank ? `blank (${L.blankRule[s.blankRule]})` : "no blank",
        L.clueMode[s.clueMode],
        s.turnSeconds === 0 && s.voteSeconds === 0 ? "no timers" : `turn ${s.turnSeconds}s vote ${s.voteSeconds}s`,
        `tie: ${L.tieRule[s.tieRule]}`,
        `spies win ${L.spyWin[s.spyWin] || s.spyWin}`,
      ].join(" · "),
    yourTurnSpoken: "Your turn: say your clue, then press Done",
    yourTurnTyped: "Your turn: type your clue and send it, or pass",
    done: "Done",
    pass: "Pass",
    send: "Send",
    clueLabel: "Clue",
    turnOf: (name) => `${name} is describing`,
    pickVote: "Pick who goes out",
    voteFor: (seat, name) => `Vote seat ${seat}, ${name}, out`,
    ballot: (name) => `You voted for ${name} (you may change it)`,
    votedAlready: "You have voted (you may change it)",
    waitVote: "Waiting for the others to vote",
    youAreOut: "You are out: watch the rest",
    notDealt: "You are not in this game; join the next one",
    sittingOut: "not dealt",
    watchingToJoin: "A game is running: you join by yourself when it ends. Lost your seat? Press “That's me” next to your name.",
    thatsMe: "That's me",
    thatsMeName: (name) => `I am ${name}: ask the owner for this seat back`,
    claimPending: (seat) => (seat ? `Asking the owner to give you seat ${seat} back…` : "Asking the owner to give you your seat back…"),
    claimQuestion: (name, seat) => `${name} wants seat ${seat} back — allow?`,
    claimAllow: "Allow",
    claimDeny: "Refuse",
    newOwner: (name) => `${name} is now the owner`,
    youAreOwner: "You are now the room's owner",
    yourGuess: "You are out: guess the civilians' word",
    guessLabel: "Guess",
    guessOf: (name) => `${name} is guessing the civilians' word`,
    confirmVote: (name) => `Vote ${name} out?`,
    confirmVoteYes: "Out you go!",
    confirmVoteNo: "Spare them",
    confirmKick: (name) => `Remove ${name} from the room?`,
    kick: "Kick",
    kickName: (name) => `Remove ${name} from the room`,
    kickYes: "Remove",
    cancel: "Cancel",
    leave: "Leave the room",
    confirmLeave: "A game is on: leave and give up your seat?",
    confirmLeaveNoGame: "Leave and give up your seat?",
    leaveYes: "Leave",
    stay: "Stay",
    seatsHeading: "Seats",
    cluesHeading: "Clues",
    eventsHeading: "Events",
    resultHeading: "Result",
    noClues: "No clues yet",
    spokenClue: "(spoken)",
    passed: "(passed)",
    winner: { civilians: "The civilians win!", spies: "The spies win!", blank: "The blank wins!" },
    civilianWord: "Civilian word",
    spyWord: "Spy word",
    words: (c, s) => `Civilian word: ${c}  Spy word: ${s}`,
    scores: "Scores",
    joined: (name) => `${name} joined`,
    left: (name) => `${name} left`,
    wentAway: (name) => `${name} is away (seat kept)`,
    back: (name) => `${name} is back`,
    settingsChanged: (line) => `Settings: ${line}`,
    gameStarted: (n) => `Game ${n} starts: words are dealt`,
    turnEvent: (who, isMe, pk) => {
      const w = isMe ? "you" : who;
      return pk ? `PK: ${w} to describe again` : `Turn: ${w}`;
    },
    clueEvent: (name, text) => (text === undefined ? `${name} is done` : `${name}：${text}`),
    votingOpened: (pk) => (pk ? "PK vote opens" : "Voting opens"),
    tally: (name, voters) => `${name} ← ${voters}`,
    votedOut: (name, role) => (role ? `${name} is out: a ${role}` : `${name} is out`),
    pkEvent: (names) => `Tie! PK between ${names}`,
    nobodyOut: "Nobody is out this round",
    blankGuess: (name, guess) => `${name} guessed: ${guess}`,
    reveal: (name, role, word) => `${name}：${role}` + (word === undefined ? "" : ` (${word})`),
    reconnected: "Reconnected",
    lostHost: "Lost the host; reconnecting…",
    connectionClosed: "Connection closed",
    list: (names) => (names.length === 0 ? "—" : names.join(", ")),
    bye: {
      host_closing: "The host is closing",
      room_closed: "The room closed",
      left: "You left the room",
      other: (r) => `The host ended the connection: ${r}`,
    },
    problem: {
      clue_has_word: "Your clue contains your word: say it another way",
      bad_clue: "A clue is 1 to 100 characters, no control characters",
      not_your_turn: "It is not your turn",
      self_vote: "You cannot vote for yourself",
      bad_target: "That player cannot be chosen",
      not_owner: "Only the room owner can do that",
      wrong_phase: "Not possible in this phase",
      not_playing: "You are not playing in this game",
      too_few_players: "At least 4 players are needed to start",
      too_few_players_count: (need, have) =>
        `${need} players are needed to start, ${have} are here` +
        (need > 4 ? " (with the blank, civilians must be the majority)" : ""),
      too_many_spies: "Too many spies for this table",
      bad_settings: "A setting is out of range",
      room_full: "The room is full",
      game_in_progress: "A game is running: join when it ends",
      name_taken: "That name is taken",
      bad_name: "Names are 1 to 16 columns, no control characters",
      wrong_password: "Wrong room password",
      room_not_found: "No room with that code",
      room_required: "The host has several rooms: enter the room code",
      protocol_version: "The host speaks another protocol version",
      kicked: "The owner removed you",
      replaced: "Your seat was resumed in another tab or device",
      host_closing: "The host is closing",
      bad_token: "Your old seat expired; join again",
      too_many_rooms: "The host cannot open another room",
      too_many_connections: "The host is full; try again in a moment",
      idle_timeout: "Silent for too long; reconnecting",
      slow_consumer: "The connection is too slow; reconnecting",
      too_many_errors: "Too many refused moves; reconnecting",
      bad_message: "The host did not understand that move",
      internal: "The host had a problem; nothing changed",
      claim_invalid: "That seat cannot be taken back",
      claim_unavailable: "Nobody at the table can let you back in right now; try again in a moment",
      claim_busy: "Someone is already asking for that seat",
      claim_refused: "The room did not give you the seat back",
      not_allowed: "You cannot do that",
    },
    joinWithPhone: "Join with a phone or laptop",
    scanOrOpen: "Scan the QR code, or open in a browser:",
    openInBrowser: "Open in a browser:",
    showBoard: "Show the board",
    bankCategories: "The bank's categories (only ticked ones are drawn; none ticked = all)",
    pairsIn: (name, n) => `${name} (${n})`,
    boardWatching: "The board shows only what everyone may see: never anyone's word",
    lastResult: "Last vote",
    phaseNow: "Now",
  },
};

// Errors after which the host has closed the connection and trying again the same way cannot help.
const FINAL_ERRORS = new Set([
  "protocol_version",
  "hello_required",
  "room_not_found",
  "room_required",
  "room_full",
  "game_in_progress",
  "name_taken",
  "bad_name",
  "wrong_password",
  "bad_token",
  "too_many_rooms",
  "replaced",
  "kicked",
  "claim_invalid",
  "claim_unavailable",
  "claim_busy",
  "claim_refused",
]);

const LANGUAGE_KEY = "whoisspy.lang";

/** The interface language: the player's last choice, else the browser's (zh… means Traditional Chinese). */
function initialLanguage() {
  try {
    const saved = localStorage.getItem(LANGUAGE_KEY);
    if (saved === "zh" || saved === "en") return saved;
  } catch (_) {
    // Storage can be off (private mode); the browser's language still decides.
  }
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    if (!tag) continue;
    const lower = tag.toLowerCase();
    if (lower.startsWith("zh")) return "zh";
    if (lower.startsWith("en")) return "en";
  }
  return "en";
}

/** Remembers the choice and marks the document so screen readers pronounce it right. */
function applyLanguage(lang) {
  try {
    localStorage.setItem(LANGUAGE_KEY, lang);
  } catch (_) {
    // Not remembered; the switch still works for this page.
  }
  document.documentElement.lang = lang === "zh" ? "zh-Hant-TW" : "en";
  return STRINGS[lang];
}

/** Fills every element marked `data-text="key"` (and `data-label` for aria-label) from the strings. */
function fillStaticText(L) {
  for (const node of document.querySelectorAll("[data-text]")) {
    node.textContent = L[node.dataset.text];
  }
  for (const node of document.querySelectorAll("[data-setting-label]")) {
    node.textContent = L.settingLabels[node.dataset.settingLabel];
  }
  for (const node of document.querySelectorAll("[data-option-of]")) {
    node.textContent = L[node.dataset.optionOf][node.value];
  }
}

/** A new element with attributes, classes and children; strings become text nodes (never HTML). */
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  if (props) {
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/** Whole seconds left on a timer ending at `endsAt` (performance.now() milliseconds). */
function secondsLeft(endsAt) {
  return Math.max(0, Math.ceil((endsAt - performance.now()) / 1000));
}

/**
 * One player's (or watcher's) link to the host over the WebSocket at /ws: one protocol message per text frame.
 *
 * It says hello on every (re)connection, answers the host's pings, pings every 15 s to find a dead link, and when
 * the link drops tries again with a growing pause (0.5 s up to 15 s) for five minutes, the time the host keeps a
 * seat. It stops for good after `bye` `left`/`room_closed` and after errors that a retry cannot fix.
 */
class HostLink {
  constructor({ hello, onMessage, onStatus }) {
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.status = "idle";
    this.attempt = 0;
    this.droppedAt = 0;
    this.stopped = true;
    this.retryTimer = 0;
    this.pingTimer = 0;
    this.lastHeard = 0;
    this.pingId = 0;
    document.addEventListener("visibilitychange", () => {
      // A phone that was locked comes back: try at once rather than after the pause.
      if (document.visibilityState === "visible" && !this.stopped && this.status === "reconnecting") {
        this.connectNow();
      }
    });
    window.addEventListener("online", () => {
      if (!this.stopped && this.status === "reconnecting") this.connectNow();
    });
    // A page left for another (and kept by the browser to come back to) lets its seat show as away at once, and
    // takes it back when shown again.
    window.addEventListener("pagehide", (event) => {
      if (event.persisted && !this.stopped) {
        clearTimeout(this.retryTimer);
        clearInterval(this.pingTimer);
        this.detach();
      }
    });
    window.addEventListener("pageshow", (event) => {
      if (event.persisted && !this.stopped) this.connectNow();
    });
  }

  get url() {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  }

  start() {
    this.stopped = false;
    this.attempt = 0;
    this.droppedAt = 0;
    this.setStatus("connecting");
    this.connectNow();
  }

  /** Ends the link and tries no more. */
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.detach();
    this.setStatus("closed");
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.onStatus(status, this.attempt);
  }

  detach() {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    try {
      socket.close();
    } catch (_) {
      // Already closed.
    }
  }

  connectNow() {
    clearTimeout(this.retryTimer);
    this.detach();
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (_) {
      this.dropped();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.lastHeard = performance.now();
      socket.send(JSON.stringify(this.hello()));
    };
    socket.onmessage = (event) => {
      this.lastHeard = performance.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      if (!message || typeof message.type !== "string") return;
      if (message.type === "ping") {
        this.send({ type: "pong", id: message.id });
        return;
      }
      // A watcher's first message may be its room snapshot; either means the host took the hello.
      if (message.type === "welcome" || (message.type === "room" && this.status !== "connected")) {
        this.attempt = 0;
        this.droppedAt = 0;
        this.setStatus("connected");
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => this.heartbeat(), 15000);
      }
      if (message.type === "error" && FINAL_ERRORS.has(message.code)) this.stopped = true;
      if (message.type === "bye" && message.reason !== "host_closing") this.stopped = true;
      this.onMessage(message);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.dropped();
    };
  }

  heartbeat() {
    if (!this.socket) return;
    if (performance.now() - this.lastHeard > 45000) {
      // Nothing for three pings: the link is dead even if the browser has not noticed.
      this.detach();
      this.dropped();
      return;
    }
    this.pingId += 1;
    this.send({ type: "ping", id: this.pingId });
  }

  dropped() {
    clearInterval(this.pingTimer);
    if (this.stopped) {
      this.setStatus("closed");
      return;
    }
    const now = performance.now();
    if (this.droppedAt === 0) this.droppedAt = now;
    if (now - this.droppedAt > 5 * 60 * 1000) {
      this.stopped = true;
      this.setStatus("closed");
      return;
    }
    this.attempt += 1;
    const pause = Math.min(15000, 500 * 2 ** Math.min(this.attempt - 1, 5));
    this.status = "";
    this.setStatus("reconnecting");
    this.retryTimer = setTimeout(() => this.connectNow(), pause);
  }
}

/** The seat with `id` in a room snapshot. */
function seatOf(room, id) {
  return room ? room.seats.find((seat) => seat.id === id) : undefined;
}

// Every name a page has seen per player id: a result or a reveal still names a player whose seat is gone.
const knownNames = new Map();

/** Remembers the names of a room snapshot's seats. */
function rememberNames(room) {
  for (const seat of room.seats) knownNames.set(seat.id, seat.name);
}

/** A player's display name: from the room, else the last one seen for that id, else the id. */
function nameOf(room, id) {
  const seat = seatOf(room, id);
  if (seat) return seat.name;
  return knownNames.get(id) || id || "?";
}

/** The small labels after a seat's name: owner, you, bot, away, out and revealed role, voted, turn, score. */
function seatBadges(seat, room, me, L) {
  const badges = [];
  const badge = (text, kind) => el("span", { class: `badge ${kind}`, text });
  if (room.turn === seat.id && room.phase === "describing") badges.push(badge(`▶ ${L.turnMark}`, "turn"));
  if (seat.owner) badges.push(badge(`★ ${L.owner}`, "owner"));
  if (seat.id === me) badges.push(badge(L.you, "me"));
  if (seat.bot) badges.push(badge(L.bot, "bot"));
  if (!seat.connected) badges.push(badge(L.away, "away"));
  if (seat.sittingOut && room.phase !== "lobby") badges.push(badge(L.sittingOut, "away sitting-out"));
  const inGame = room.phase !== "lobby";
  if (inGame && !seat.alive && !seat.sittingOut) badges.push(badge(L.out, "out"));
  if (seat.revealed) badges.push(badge(L.role[seat.revealed], `role role-${seat.revealed}`));
  if (room.phase === "voting" && seat.voted) badges.push(badge(`✓ ${L.voted}`, "voted"));
  if (room.game > 0) badges.push(badge(L.points(seat.score), "score"));
  return badges;
}

/** One list item per seat, in seat order; `extra(seat)` may add controls (the owner's kick button). */
function seatItems(room, me, L, extra) {
  return room.seats.map((seat) => {
    const classes = ["seat"];
    if (room.turn === seat.id && room.phase === "describing") classes.push("is-turn");
    if (room.phase !== "lobby" && !seat.alive && !seat.sittingOut) classes.push("is-out");
    if (seat.id === me) classes.push("is-me");
    if (!seat.connected) classes.push("is-away");
    return el(
      "li",
      { class: classes.join(" "), dataset: { player: seat.id } },
      el("span", { class: "seat-number", text: String(seat.seat) }),
      el("span", { class: "seat-name", text: seat.name }),
      el("span", { class: "badges" }, seatBadges(seat, room, me, L)),
      extra ? extra(seat) : null,
    );
  });
}

/**
 * The clues of the current game, oldest first, with a heading line per round. With `foldBefore`, the rounds before
 * that one are one line each (the board keeps the latest clues on screen).
 */
function clueItems(room, L, foldBefore = 0) {
  const items = [];
  let round = -1;
  for (const clue of room.clues) {
    if (clue.round < foldBefore) {
      if (clue.round !== round) {
        round = clue.round;
        const count = room.clues.filter((other) => other.round === round).length;
        items.push(el("li", { class: "clue-round folded", text: L.roundFolded(round, count) }));
      }
      continue;
    }
    if (clue.round !== round) {
      round = clue.round;
      items.push(el("li", { class: "clue-round", text: L.round(round) }));
    }
    const text = clue.text === undefined ? (room.settings.clueMode === "spoken" ? L.spokenClue : L.passed) : clue.text;
    items.push(
      el(
        "li",
        { class: clue.text === undefined ? "clue no-text" : "clue", dataset: { player: clue.player } },
        el("span", { class: "clue-name", text: nameOf(room, clue.player) }),
        el("span", { class: "clue-text", text }),
      ),
    );
  }
  if (items.length === 0) items.push(el("li", { class: "empty", text: L.noClues }));
  return items;
}

/** "房間 KFRW · 第1局 · 第2輪 · 投票中 · PK" for a header. */
function whereLine(room, L) {
  const parts = [L.room(room.room)];
  if (room.game > 0 && room.phase !== "lobby") parts.push(L.game(room.game));
  if (room.round > 0 && room.phase !== "lobby" && room.phase !== "gameOver") parts.push(L.round(room.round));
  let phase = L.phase[room.phase] || room.phase;
  if (room.pk.length > 0 && (room.phase === "describing" || room.phase === "voting")) phase += " · PK";
  parts.push(phase);
  return parts.join(" · ");
}

/** The lines a closed vote adds: the tally, most votes first, then what happened. */
function resultLines(result, room, L) {
  const lines = [...result.tally]
    .sort((a, b) => b.voters.length - a.voters.length)
    .map((entry) => L.tally(nameOf(room, entry.player), L.list(entry.voters.map((id) => nameOf(room, id)))));
  if (result.outcome === "out") {
    lines.push(L.votedOut(nameOf(room, result.out), result.identity ? L.role[result.identity] : undefined));
  } else if (result.outcome === "pk") {
    lines.push(L.pkEvent(L.list(result.tied.map((id) => nameOf(room, id)))));
  } else {
    lines.push(L.nobodyOut);
  }
  return lines;
}

/** The game-over reveal as list items: each player's role and word, in seat order. */
function revealItems(over, room, me, L) {
  return over.reveal.map((entry) =>
    el(
      "li",
      { class: `reveal-entry role-${entry.role}${entry.player === me ? " is-me" : ""}`, dataset: { player: entry.player } },
      el("span", { class: "reveal-name", text: nameOf(room, entry.player) }),
      el("span", { class: `badge role role-${entry.role}`, text: L.role[entry.role] }),
      el("span", { class: "reveal-word", text: entry.word === undefined ? "" : entry.word }),
    ),
  );
}

/** Who may vote in the vote now open, from a snapshot alone (after a resume, before any `voting`). */
function votersOf(room) {
  const alive = room.seats.filter((seat) => seat.alive).map((seat) => seat.id);
  const others = alive.filter((id) => !room.pk.includes(id));
  return others.length > 0 ? others : alive;
}
