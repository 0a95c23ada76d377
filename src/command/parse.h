/* SPDX-License-Identifier: MIT */
/*
 * parse.h — private to src/command: reading a message into commands,
 * with no database and no game in sight (so that it can be fuzzed alone).
 *
 * Design.  A cmd_reader walks the message line by line and hands out one
 * item at a time (cmd_next): a command with its arguments, a line that is
 * no command (an order, or a mistake: the runner decides which, since
 * only it knows who is signed on), or a whole press message (the PRESS or
 * BROADCAST line with its body up to ENDPRESS, ENDBROADCAST, SIGNOFF or
 * the end).  SIGNOFF ends the message: nothing after it is read.
 *
 * Everything is bounded: lines are cut at CMD_LINE_MAX bytes (and say
 * so), at most CMD_MAX_LINES lines are read, a press body holds at most
 * CMD_PRESS_MAX bytes, every word fits its field or the command is
 * refused.  Case never matters in command words.
 *
 * Passwords.  Every item carries `echo`, the line as the reply may show
 * it: the password of SIGNON, JOIN, OBSERVE, CREATE and SET PASSWORD is
 * replaced by "****" (all of a malformed such line's arguments are), and
 * a line that looks like a misspelt one of those ("SIGON Fdemo secret")
 * is masked the same way.  Nothing else in an item ever holds a password
 * but `password` itself.
 */
#ifndef DJ_COMMAND_PARSE_H
#define DJ_COMMAND_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

#define CMD_LINE_MAX 1024     /* bytes of one line, with the NUL */
#define CMD_MAX_LINES 2000    /* lines read from one message */
#define CMD_PRESS_MAX 65536   /* bytes of one press body */
#define CMD_GAME_MAX 64       /* a game name as written */
#define CMD_WORD_MAX 128      /* a power, password or other single word */
#define CMD_LIST_MAX 512      /* a list of press recipients */
#define CMD_MASK "****"

typedef enum cmd_kind {
    CMD_TEXT = 0,  /* no command: an order line, or not understood */
    CMD_BAD,       /* a command with wrong arguments: error says why */
    /* anyone */
    CMD_HELP,
    CMD_LIST,
    CMD_HISTORY,
    CMD_SUMMARY,
    CMD_JOIN,
    CMD_OBSERVE,
    CMD_CREATE,
    CMD_SIGNON,
    CMD_SIGNOFF,
    /* a signed-on participant */
    CMD_CLEAR,
    CMD_STATUS,
    CMD_READY,
    CMD_NOT_READY,
    CMD_WAIT,
    CMD_NOWAIT,
    CMD_PASSWORD,
    CMD_ADDRESS,
    CMD_ABSENCE,
    CMD_NOABSENCE,
    CMD_DRAW,
    CMD_NODRAW,
    CMD_CONCEDE,
    CMD_NOCONCEDE,
    CMD_PRESS,     /* PRESS and BROADCAST, body included */
    CMD_ENDPRESS,  /* one without a PRESS before it */
    CMD_RESIGN,
    /* the master */
    CMD_PROCESS,
    CMD_PREVIEW,
    CMD_ROLLBACK,
    CMD_ROLLFORWARD,
    CMD_PAUSE,
    CMD_RESUME,
    CMD_START,
    CMD_BECOME,
    CMD_EJECT,
    CMD_REPLACE,   /* REPLACE power address */
    CMD_TERMINATE,
    CMD_SETTING,   /* SET KEY VALUE, SET KEY=VALUE */
    CMD_DEADLINE,  /* SET DEADLINE ...: the setting deadline= */
    CMD_MAP,       /* MAP [GAME] [PHASE]: the picture, attached */
    CMD_TAKEOVER,  /* TAKEOVER POWER@GAME PASSWORD: a power in disorder */
    CMD_CONFIRM,   /* CONFIRM CODE: a JOIN, OBSERVE or CREATE happens */
    CMD_MAPFORMAT, /* SET MAP PNG|PDF|SVG|NONE: one's results picture */
    CMD_PRESS_ARCHIVE, /* PRESS ARCHIVE game [from [to]] */
    CMD_REVEAL,    /* the master shows who plays which power */
    CMD_SETMASTER, /* the master hands the game to another (by code) */
    CMD_STATS,     /* SET STATS PUBLIC|PRIVATE: one's reliability figures */
    CMD_TOKEN,     /* SET TOKEN NEW: a new reply address */
    /* the older judges' commands (parse_old.c, run_old.c) */
    CMD_PHASE,     /* PHASE S1902M: orders for another phase */
    CMD_IF,        /* IF ...: njudge's conditional orders */
    CMD_ELSE,
    CMD_ENDIF,
    CMD_DIARY,     /* DIARY, body to ENDDIARY */
    CMD_ENDDIARY,  /* one without a DIARY before it */
    CMD_OFFICIAL,  /* the master's notice */
    CMD_POSTAL,    /* POSTAL PRESS */
    CMD_PROMOTE,   /* a co-master */
    CMD_UNSTART,
    CMD_VERSION,
    CMD_GET,       /* GET file: njudge's help files */
    CMD_EXTEND,    /* EXTEND: a vote to move the deadline (extension) */
    /* a participant's own options (game/player_options.h) */
    CMD_OWN_ZONE,  /* SET ZONE zone: deadlines in one's zone too */
    CMD_REMINDER,  /* SET REMINDER 6h|NONE|DEFAULT */
    CMD_CALENDAR,  /* SET CALENDAR ON|OFF: the deadline's .ics */
    CMD_PREFERENCE, /* SET PREFERENCE list: powers wanted, in order */
    CMD_KIND_COUNT
} cmd_kind;

typedef struct cmd {
    cmd_kind kind;
    /* the table row that read the line: its name and usage, set before
     * its parser runs, so parsers and runners name the command without
     * looking the table up (the table points at them, not back) */
    const char *name, *usage;
    int line;                    /* 1-based line of the body; 0 the subject */
    bool cut;                    /* the line was longer than CMD_LINE_MAX */
    char echo[CMD_LINE_MAX];     /* the line as shown: passwords masked */
    char text[CMD_LINE_MAX];     /* CMD_TEXT: the line itself */
    char game[CMD_GAME_MAX];     /* the game named, if any */
    char who[CMD_WORD_MAX];      /* SIGNON/JOIN role or power; BECOME, EJECT,
                                    CONCEDE: a power */
    char password[CMD_WORD_MAX]; /* SIGNON, JOIN, OBSERVE, CREATE, PASSWORD */
    char arg[CMD_LINE_MAX];      /* the rest: HISTORY from, address (also
                                    REPLACE's), absence
                                    from, phase, reason, setting key=value,
                                    CREATE settings */
    char arg2[CMD_LINE_MAX];     /* HISTORY to, absence to */
    /* CMD_PRESS */
    bool opens_press;            /* a PRESS or BROADCAST line, even bad */
    bool opens_diary;            /* DIARY: a body up to ENDDIARY */
    bool broadcast;
    bool has_to;                 /* PRESS TO list */
    char to[CMD_LIST_MAX];
    bool fake;
    bool fake_has_to;            /* FAKE TO list; else FAKE BROADCAST */
    char fake_to[CMD_LIST_MAX];
    char fake_from[CMD_WORD_MAX]; /* FROM power: the sender shown */
    int grey;                    /* -1 not said, 0 WHITE, 1 GREY */
    bool press_ended;            /* by ENDPRESS (else SIGNOFF or the end) */
    int press_lines;             /* lines in the body */
    char error[256];             /* CMD_BAD: what is wrong */
} cmd;

typedef struct cmd_reader {
    const char *next;            /* the unread rest of the body */
    int line;                    /* body lines read so far */
    bool subject_pending;        /* a subject that is a command */
    char subject[CMD_LINE_MAX];
    bool ended;                  /* SIGNOFF or the line limit reached */
    bool signed_off;             /* SIGNOFF seen */
    int skipped;                 /* lines left unread after the end */
} cmd_reader;

/*
 * Start reading a message.  The subject is read first, as one more line,
 * when it parses completely as a command the table lets a player give
 * there (HELP, LIST, HISTORY, SUMMARY, MAP, JOIN, OBSERVE, CONFIRM,
 * CREATE, SIGNON); any other subject ("Re: dipjudge:demo - S1901M
 * Results", "map please", a lone "join") is ignored without a word.
 */
void cmd_reader_init(cmd_reader *r, const char *subject, const char *body);

/*
 * The next item, or false at the end.  Blank lines are skipped.  For a
 * CMD_PRESS item the body (its lines, each ending in '\n') is appended to
 * press_body, which the caller empties between items.
 */
bool cmd_next(cmd_reader *r, cmd *c, dj_buf *press_body);

/* Parse one line (no press body is read). */
void cmd_parse_line(const char *line, cmd *c);

/* "SIGNON", "SET PASSWORD", ...: the command's name, for messages. */
const char *cmd_name(cmd_kind kind);

#endif
