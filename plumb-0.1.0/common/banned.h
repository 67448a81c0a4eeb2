/*
 * common/banned.h: functions plumb does not call (STYLE 9).
 *
 * Include it last in every .c file, after all system headers: it turns a
 * call to any of these into a compile error that names the banned function.
 * tests/integration/t0001-source-banned.sh also checks the sources.
 * Use snprintf, the buf_* helpers, strtok_r, gmtime_r, localtime_r and
 * strtol/strtoull with range checks instead.
 */
#ifndef PLUMB_COMMON_BANNED_H
#define PLUMB_COMMON_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef atoi
#define atoi(s) BANNED(atoi)
#undef atol
#define atol(s) BANNED(atol)
#undef gets
#define gets(s) BANNED(gets)

#endif
