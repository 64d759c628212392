/*
 * gSOAP 2.8 side of the server load benchmark: a server of the Mobile Field-Service, with
 * the C code wsdl2h and soapcpp2 generate from the service's WSDL
 * (tests/bench/gsoap/build-server.sh), to load side by side with rmm's generated server.
 *
 *   mobile_server PORT
 *
 * Listens on 127.0.0.1:PORT, prints `listening on 127.0.0.1:PORT` once it accepts
 * connections, then serves forever (stop it with a signal). Tuned, thread per connection:
 * the main thread accepts; each connection is served by its own detached thread with a copy
 * of the context, with HTTP keep-alive (up to 100000 requests a connection), TCP_NODELAY,
 * and 30 s receive and send timeouts (so that idle keep-alive connections close in the end).
 * Strings are kept as UTF-8 (SOAP_C_UTFSTRING), as rmm's are, and output skips the id/href
 * multi-reference analysis (SOAP_XML_TREE). Nothing is logged per request.
 *
 * The two operations the load bench times answer what rmm's echo service answers
 * (generated/examples/echo_server.rs): `Op(name=value;...)` with every parameter in wire
 * order, credentials included (ints as digits, booleans true/false, strings as received, an
 * absent string <null>); a string parameter equal to FAULT makes them answer the client
 * fault `requested fault`. They are MobileAccountSearch and MobileTaskCreate. The other 18
 * operations answer `ok`. Each operation is served on the SOAP 1.1 and the SOAP 1.2 binding
 * (soapcpp2 names the latter's function with a trailing underscore).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "soapH.h"
#include "mobile.nsmap"

enum {
    MAX_KEEP_ALIVE = 100000,
    IO_TIMEOUT_SECONDS = 30,
    ACCEPT_TIMEOUT_SECONDS = 60,
    BACKLOG = 1024,
    THREAD_STACK = 1024 * 1024,
};

/* ---- The echo ---------------------------------------------------------------------------- */

/* A growing buffer in the context's memory (freed by soap_end with the rest of the call). */
struct echo {
    struct soap *soap;
    char *buf;
    size_t len;
    size_t cap;
    int fault; /* a string parameter equals FAULT */
    int oom;
};

static void echo_reserve(struct echo *e, size_t more)
{
    if (e->oom || e->len + more + 1 <= e->cap)
        return;
    size_t cap = e->cap ? e->cap : 512;
    while (e->len + more + 1 > cap)
        cap *= 2;
    char *buf = (char *)soap_malloc(e->soap, cap);
    if (!buf) {
        e->oom = 1;
        return;
    }
    if (e->len)
        memcpy(buf, e->buf, e->len);
    e->buf = buf;
    e->cap = cap;
}

static void echo_raw(struct echo *e, const char *s, size_t n)
{
    echo_reserve(e, n);
    if (e->oom)
        return;
    memcpy(e->buf + e->len, s, n);
    e->len += n;
}

static void echo_begin(struct echo *e, struct soap *soap, const char *op)
{
    memset(e, 0, sizeof *e);
    e->soap = soap;
    echo_reserve(e, 1024);
    echo_raw(e, op, strlen(op));
    echo_raw(e, "(", 1);
}

static void echo_name(struct echo *e, const char *name)
{
    if (e->len && e->buf[e->len - 1] != '(')
        echo_raw(e, ";", 1);
    echo_raw(e, name, strlen(name));
    echo_raw(e, "=", 1);
}

static void echo_int(struct echo *e, const char *name, int v)
{
    char digits[16];
    int n = snprintf(digits, sizeof digits, "%d", v);
    echo_name(e, name);
    echo_raw(e, digits, (size_t)n);
}

static void echo_bool(struct echo *e, const char *name, enum xsd__boolean v)
{
    echo_name(e, name);
    if (v)
        echo_raw(e, "true", 4);
    else
        echo_raw(e, "false", 5);
}

static void echo_string(struct echo *e, const char *name, const char *v)
{
    echo_name(e, name);
    if (!v) {
        echo_raw(e, "<null>", 6);
        return;
    }
    if (!strcmp(v, "FAULT"))
        e->fault = 1;
    echo_raw(e, v, strlen(v));
}

/* Ends the echo: *result is the string, or the call answers a fault. */
static int echo_end(struct echo *e, char **result)
{
    if (e->fault)
        return soap_sender_fault(e->soap, "requested fault", NULL);
    echo_raw(e, ")", 1);
    if (e->oom)
        return e->soap->error = SOAP_EOM;
    e->buf[e->len] = '\0';
    *result = e->buf;
    return SOAP_OK;
}

/* ---- The two reference operations -------------------------------------------------------- */

int __ns1__MobileTaskCreate(struct soap *soap, struct _ns1__MobileTaskCreate *q,
                            struct _ns1__MobileTaskCreateResponse *r)
{
    struct echo e;
    echo_begin(&e, soap, "MobileTaskCreate");
    echo_int(&e, "repnumber", q->repnumber);
    echo_int(&e, "accountnumber", q->accountnumber);
    echo_string(&e, "accountname", q->accountname);
    echo_int(&e, "contactnumber", q->contactnumber);
    echo_string(&e, "startdate", q->startdate);
    echo_string(&e, "enddate", q->enddate);
    echo_string(&e, "starttime", q->starttime);
    echo_string(&e, "endtime", q->endtime);
    echo_string(&e, "tasktype", q->tasktype);
    echo_string(&e, "taskaction", q->taskaction);
    echo_string(&e, "taskcomment", q->taskcomment);
    echo_int(&e, "scheduledforrepnumber", q->scheduledforrepnumber);
    echo_int(&e, "prioritynumber", q->prioritynumber);
    echo_string(&e, "prioritytext", q->prioritytext);
    echo_int(&e, "sonumber", q->sonumber);
    echo_int(&e, "opportunitynumber", q->opportunitynumber);
    echo_bool(&e, "alarmindicator", q->alarmindicator);
    echo_int(&e, "alarmreminderquantity", q->alarmreminderquantity);
    echo_string(&e, "alarmreminderinterval", q->alarmreminderinterval);
    echo_string(&e, "subject", q->subject);
    echo_string(&e, "location", q->location);
    echo_bool(&e, "taskcompletedindicator", q->taskcompletedindicator);
    echo_bool(&e, "checkconflicts", q->checkconflicts);
    echo_bool(&e, "conflictoverride", q->conflictoverride);
    echo_string(&e, "timestamp", q->timestamp);
    echo_string(&e, "sig", q->sig);
    echo_string(&e, "mobilekey", q->mobilekey);
    return echo_end(&e, &r->MobileTaskCreateResult);
}

int __ns1__MobileTaskCreate_(struct soap *soap, struct _ns1__MobileTaskCreate *q,
                             struct _ns1__MobileTaskCreateResponse *r)
{
    return __ns1__MobileTaskCreate(soap, q, r);
}

int __ns1__MobileAccountSearch(struct soap *soap, struct _ns1__MobileAccountSearch *q,
                               struct _ns1__MobileAccountSearchResponse *r)
{
    struct echo e;
    echo_begin(&e, soap, "MobileAccountSearch");
    echo_string(&e, "accountname", q->accountname);
    echo_string(&e, "contactname", q->contactname);
    echo_string(&e, "telephone", q->telephone);
    echo_string(&e, "email", q->email);
    echo_int(&e, "repnumber", q->repnumber);
    echo_string(&e, "timestamp", q->timestamp);
    echo_string(&e, "sig", q->sig);
    return echo_end(&e, &r->MobileAccountSearchResult);
}

int __ns1__MobileAccountSearch_(struct soap *soap, struct _ns1__MobileAccountSearch *q,
                                struct _ns1__MobileAccountSearchResponse *r)
{
    return __ns1__MobileAccountSearch(soap, q, r);
}

/* ---- The other 18: a fixed answer -------------------------------------------------------- */

#define ANSWER_OK(Op)                                                                         \
    int __ns1__##Op(struct soap *soap, struct _ns1__##Op *q, struct _ns1__##Op##Response *r)  \
    {                                                                                         \
        (void)soap;                                                                           \
        (void)q;                                                                              \
        r->Op##Result = (char *)"ok";                                                         \
        return SOAP_OK;                                                                       \
    }                                                                                         \
    int __ns1__##Op##_(struct soap *soap, struct _ns1__##Op *q, struct _ns1__##Op##Response *r) \
    {                                                                                         \
        return __ns1__##Op(soap, q, r);                                                       \
    }

ANSWER_OK(MobileServiceOrderCreate)
ANSWER_OK(MobileItemsServicedCreate)
ANSWER_OK(MobileContactUpdate)
ANSWER_OK(MobileAccountJournalUpdate)
ANSWER_OK(MobilePriceBookQuantityEachLocation)
ANSWER_OK(MobilePasswordKeeperCreate)
ANSWER_OK(MobileTaskConflictCheck)
ANSWER_OK(MobilePartsUsedAssemblyUpdate)
ANSWER_OK(MobileInvoiceBacktrack)
ANSWER_OK(MobileContactEmailCreate)
ANSWER_OK(MobileCustomerInventoryDropdown)
ANSWER_OK(MobilePhoneNumberDelete)
ANSWER_OK(MobileServiceOrderRepAssignedDelete)
ANSWER_OK(MobileServiceOrderRepAssignedList)
ANSWER_OK(MobileAccountDefaultsList)
ANSWER_OK(MobileServiceOrderLockCheck)
ANSWER_OK(MobilePartsUsedPriceLevelSelect)
ANSWER_OK(MobileGetInvoiceDetails)

/* ---- Serving ----------------------------------------------------------------------------- */

/* Called by soap_serve after each answer: frees what the call decoded and allocated, which
 * soap_serve's keep-alive loop would otherwise keep until the connection closes. */
static int end_of_call(struct soap *soap)
{
    soap_destroy(soap);
    /* soap_dealloc, not soap_end: soap_serve's next soap_begin clears the temporary data
     * (hash tables) itself, and clearing them costs more than the rest of a small call. */
    soap_dealloc(soap, NULL);
    return SOAP_OK;
}

static void *serve_connection(void *arg)
{
    struct soap *soap = (struct soap *)arg;
    soap->fserveloop = end_of_call;
    /* soap_serve loops over the connection's requests while it is kept alive (up to
     * max_keep_alive of them), until the client closes it or recv_timeout passes; after a
     * fault it answers `Connection: close` and returns. */
    soap_serve(soap);
    soap_destroy(soap);
    soap_end(soap);
    soap_free(soap); /* closes the connection (not the listener: this is a copy) */
    return NULL;
}

static void die(const char *what, struct soap *soap)
{
    fprintf(stderr, "mobile_server: %s: ", what);
    soap_print_fault(soap, stderr);
    exit(1);
}

int main(int argc, char **argv)
{
    char *end = NULL;
    long port = argc == 2 ? strtol(argv[1], &end, 10) : -1;
    if (argc != 2 || !end || *end || port < 1 || port > 65535) {
        fprintf(stderr, "usage: mobile_server PORT\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);

    struct soap soap;
    soap_init2(&soap, SOAP_IO_KEEPALIVE | SOAP_C_UTFSTRING,
               SOAP_IO_KEEPALIVE | SOAP_C_UTFSTRING | SOAP_XML_TREE);
    soap_set_namespaces(&soap, namespaces);
    soap.bind_flags = SO_REUSEADDR;
    soap.max_keep_alive = MAX_KEEP_ALIVE;
    soap.accept_timeout = ACCEPT_TIMEOUT_SECONDS;
    soap.recv_timeout = IO_TIMEOUT_SECONDS;
    soap.send_timeout = IO_TIMEOUT_SECONDS;

    if (!soap_valid_socket(soap_bind(&soap, "127.0.0.1", (int)port, BACKLOG)))
        die("bind", &soap);
    printf("listening on 127.0.0.1:%ld\n", port);
    fflush(stdout);

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, THREAD_STACK);

    for (;;) {
        if (!soap_valid_socket(soap_accept(&soap))) {
            if (soap.errnum == 0) /* the accept timeout: nobody came */
                continue;
            /* EMFILE, ECONNABORTED, ...: report it, breathe, keep serving. */
            soap_print_fault(&soap, stderr);
            usleep(10000);
            continue;
        }
        int one = 1;
        setsockopt(soap.socket, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct soap *copy = soap_copy(&soap);
        if (!copy) {
            soap_closesock(&soap);
            continue;
        }
        pthread_t thread;
        if (pthread_create(&thread, &attr, serve_connection, copy)) {
            soap_free(copy); /* closes the connection */
            soap.socket = SOAP_INVALID_SOCKET;
            continue;
        }
        /* The copy owns the connection now. */
        soap.socket = SOAP_INVALID_SOCKET;
    }
}
