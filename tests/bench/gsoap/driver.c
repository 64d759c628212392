/*
 * gSOAP 2.8 side of the objects_codec benchmark (tests/benches/objects_codec.rs): the
 * EchoOrder operation of tests/fixtures/objects/wsdl.xml over SOAP 1.1, with the C code
 * wsdl2h and soapcpp2 generate from that WSDL (tests/bench/gsoap/build.sh).
 *
 *   driver REQUEST.xml RESPONSE.xml [ITERATIONS [RUNS]]
 *
 * REQUEST.xml and RESPONSE.xml are the SOAP 1.1 envelopes rmm's generated client and server
 * write (the bench writes them). Each of the four steps runs RUNS times ITERATIONS times; the
 * driver prints the median over the runs of the mean ns per iteration, one line a step:
 *
 *   decode_request  <ns>   server: the request envelope into the generated structs
 *   decode_response <ns>   client: the response envelope into the generated structs
 *   encode_request  <ns>   client: the request structs into an envelope in memory
 *   encode_response <ns>   server: the response structs into an envelope in memory
 *
 * Each step is the sequence of calls the generated soap_serve___ns1__EchoOrder,
 * soap_send___ns1__EchoOrder and soap_recv___ns1__EchoOrder make, minus the socket: input comes
 * from memory through soap->frecv, output goes to a reused growing buffer through soap->fsend,
 * and soap_connect (which opens the socket) is replaced by soap_begin_send. The context runs
 * in the mode that costs gSOAP least and still reads and writes what rmm does:
 * SOAP_ENC_PLAIN (the envelope without the HTTP head, so no counting pass for
 * Content-Length), SOAP_XML_TREE (no id/href multi-reference analysis on output) and
 * SOAP_C_UTFSTRING (strings kept as UTF-8, as rmm's are). Decoding includes soap_end, which
 * frees what was decoded, as dropping rmm's values does.
 *
 * Before timing, every step is checked once: the decoded order must have its 100 lines, and
 * the driver prints what it read ("check ...") so the bench can compare it with the order it
 * encoded; a benchmark of a failing path measures nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "soapH.h"
#include "ObjectsServiceSoap.nsmap"

/* Memory input and output, through soap->user. */
struct io {
    const char *in;
    size_t in_len;
    size_t in_pos;
    char *out;
    size_t out_len;
    size_t out_cap;
};

static size_t mem_recv(struct soap *soap, char *buf, size_t len)
{
    struct io *io = (struct io *)soap->user;
    size_t n = io->in_len - io->in_pos;
    if (n > len)
        n = len;
    memcpy(buf, io->in + io->in_pos, n);
    io->in_pos += n;
    return n;
}

static int mem_send(struct soap *soap, const char *s, size_t n)
{
    struct io *io = (struct io *)soap->user;
    if (io->out_len + n > io->out_cap) {
        size_t cap = io->out_cap ? io->out_cap : 65536;
        while (cap < io->out_len + n)
            cap *= 2;
        char *p = realloc(io->out, cap);
        if (!p)
            return SOAP_EOM;
        io->out = p;
        io->out_cap = cap;
    }
    memcpy(io->out + io->out_len, s, n);
    io->out_len += n;
    return SOAP_OK;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "%s: cannot read\n", path);
        exit(2);
    }
    buf[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static struct soap *new_context(struct io *io)
{
    struct soap *soap = soap_new1(SOAP_ENC_PLAIN | SOAP_XML_TREE | SOAP_C_UTFSTRING);
    soap_set_namespaces(soap, namespaces);
    soap->user = io;
    soap->frecv = mem_recv;
    soap->fsend = mem_send;
    return soap;
}

static void fail(struct soap *soap, const char *what)
{
    fprintf(stderr, "driver: %s failed: ", what);
    soap_print_fault(soap, stderr);
    exit(1);
}

/* Server: the request envelope into struct __ns1__EchoOrder (soap_begin_serve, then
 * soap_serve___ns1__EchoOrder up to the call of the service). */
static int decode_request(struct soap *soap, struct io *io, struct __ns1__EchoOrder *req)
{
    io->in_pos = 0;
    soap_begin(soap);
    if (soap_begin_recv(soap) || soap_envelope_begin_in(soap) || soap_recv_header(soap)
        || soap_body_begin_in(soap))
        return soap->error;
    soap_default___ns1__EchoOrder(soap, req);
    if (!soap_get___ns1__EchoOrder(soap, req, "-ns1:EchoOrder", NULL))
        return soap->error;
    if (soap_body_end_in(soap) || soap_envelope_end_in(soap) || soap_end_recv(soap))
        return soap->error;
    return SOAP_OK;
}

/* Client: the response envelope into struct _ns1__EchoOrderResponse (soap_recv___ns1__EchoOrder). */
static int decode_response(struct soap *soap, struct io *io, struct _ns1__EchoOrderResponse *resp)
{
    io->in_pos = 0;
    soap_begin(soap);
    soap_default__ns1__EchoOrderResponse(soap, resp);
    if (soap_begin_recv(soap) || soap_envelope_begin_in(soap) || soap_recv_header(soap)
        || soap_body_begin_in(soap))
        return soap->error;
    soap_get__ns1__EchoOrderResponse(soap, resp, "ns1:EchoOrderResponse", NULL);
    if (soap->error)
        return soap->error;
    if (soap_body_end_in(soap) || soap_envelope_end_in(soap) || soap_end_recv(soap))
        return soap->error;
    return SOAP_OK;
}

/* Client: struct _ns1__EchoOrder into an envelope (soap_send___ns1__EchoOrder). */
static int encode_request(struct soap *soap, struct io *io, struct _ns1__EchoOrder *body)
{
    struct __ns1__EchoOrder tmp;
    tmp.ns1__EchoOrder = body;
    io->out_len = 0;
    soap_begin(soap);
    soap_set_version(soap, 1);
    soap->encodingStyle = NULL;
    soap_serializeheader(soap);
    soap_serialize___ns1__EchoOrder(soap, &tmp);
    if (soap_begin_count(soap))
        return soap->error;
    if ((soap->mode & SOAP_IO_LENGTH)) {
        if (soap_envelope_begin_out(soap) || soap_putheader(soap) || soap_body_begin_out(soap)
            || soap_put___ns1__EchoOrder(soap, &tmp, "-ns1:EchoOrder", "")
            || soap_body_end_out(soap) || soap_envelope_end_out(soap))
            return soap->error;
    }
    if (soap_end_count(soap))
        return soap->error;
    if (soap_begin_send(soap) || soap_envelope_begin_out(soap) || soap_putheader(soap)
        || soap_body_begin_out(soap)
        || soap_put___ns1__EchoOrder(soap, &tmp, "-ns1:EchoOrder", "")
        || soap_body_end_out(soap) || soap_envelope_end_out(soap) || soap_end_send(soap))
        return soap->error;
    return SOAP_OK;
}

/* Server: struct _ns1__EchoOrderResponse into an envelope (soap_serve___ns1__EchoOrder after
 * the call of the service). */
static int encode_response(struct soap *soap, struct io *io, struct _ns1__EchoOrderResponse *resp)
{
    io->out_len = 0;
    soap_begin(soap);
    soap_set_version(soap, 1);
    soap->encodingStyle = NULL;
    soap_serializeheader(soap);
    soap_serialize__ns1__EchoOrderResponse(soap, resp);
    if (soap_begin_count(soap))
        return soap->error;
    if ((soap->mode & SOAP_IO_LENGTH)) {
        if (soap_envelope_begin_out(soap) || soap_putheader(soap) || soap_body_begin_out(soap)
            || soap_put__ns1__EchoOrderResponse(soap, resp, "ns1:EchoOrderResponse", "")
            || soap_body_end_out(soap) || soap_envelope_end_out(soap))
            return soap->error;
    }
    if (soap_end_count(soap) || soap_response(soap, SOAP_OK) || soap_envelope_begin_out(soap)
        || soap_putheader(soap) || soap_body_begin_out(soap)
        || soap_put__ns1__EchoOrderResponse(soap, resp, "ns1:EchoOrderResponse", "")
        || soap_body_end_out(soap) || soap_envelope_end_out(soap) || soap_end_send(soap))
        return soap->error;
    return SOAP_OK;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* What the bench compares with the order it encoded. */
static void print_check(const char *what, const struct ns1__Order *o)
{
    if (!o) {
        printf("check %s order=null\n", what);
        return;
    }
    int lines = o->Lines ? o->Lines->__sizeOrderLine : -1;
    printf("check %s id=%d lines=%d", what, o->Id, lines);
    if (lines > 1) {
        const struct ns1__OrderLine *l = &o->Lines->OrderLine[1];
        printf(" line1.sku=%s line1.quantity=%d line1.price=%s line1.discount=%s",
               l->Sku ? l->Sku : "(null)", l->Quantity, l->Price ? l->Price : "(null)",
               l->Discount ? l->Discount : "(nil)");
        const struct ns1__OrderLine *last = &o->Lines->OrderLine[lines - 1];
        printf(" last.sku=%s last.quantity=%d", last->Sku ? last->Sku : "(null)",
               last->Quantity);
    }
    printf(" customer.address.zip=%d",
           o->Customer && o->Customer->Address ? o->Customer->Address->Zip : -1);
    printf(" blob.size=%d", o->Blob.__size);
    /* Last: it holds spaces. */
    printf(" customer.name=%s\n",
           o->Customer && o->Customer->Name ? o->Customer->Name : "(null)");
}

enum { N_STEPS = 4 };
static const char *STEP[N_STEPS] = { "decode_request", "decode_response", "encode_request",
                                     "encode_response" };

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s REQUEST.xml RESPONSE.xml [ITERATIONS [RUNS]]\n", argv[0]);
        return 2;
    }
    long iterations = argc > 3 ? atol(argv[3]) : 2000;
    int runs = argc > 4 ? atoi(argv[4]) : 7;
    if (iterations < 1 || runs < 1 || runs > 1000) {
        fprintf(stderr, "driver: bad ITERATIONS or RUNS\n");
        return 2;
    }

    struct io req_io = { 0 }, resp_io = { 0 };
    req_io.in = read_file(argv[1], &req_io.in_len);
    resp_io.in = read_file(argv[2], &resp_io.in_len);

    /* The values the encoders write, decoded once into contexts of their own that live
     * through the run. */
    struct soap *req_data = new_context(&req_io);
    struct soap *resp_data = new_context(&resp_io);
    struct __ns1__EchoOrder req;
    struct _ns1__EchoOrderResponse resp;
    if (decode_request(req_data, &req_io, &req))
        fail(req_data, "decode_request");
    if (decode_response(resp_data, &resp_io, &resp))
        fail(resp_data, "decode_response");
    if (!req.ns1__EchoOrder)
        fail(req_data, "decode_request (no EchoOrder element)");
    print_check("decode_request", req.ns1__EchoOrder->order);
    print_check("decode_response", resp.EchoOrderResult);

    /* The contexts the timed loops use. */
    struct io dec_req_io = req_io, dec_resp_io = resp_io, enc_io = { 0 };
    struct soap *dec_req = new_context(&dec_req_io);
    struct soap *dec_resp = new_context(&dec_resp_io);
    struct soap *enc = new_context(&enc_io);

    /* Each encoder once, its output kept for a look (build dir), and its size printed. */
    if (encode_request(enc, &enc_io, req.ns1__EchoOrder))
        fail(enc, "encode_request");
    printf("check encode_request bytes=%zu (rmm wrote %zu)\n", enc_io.out_len, req_io.in_len);
    FILE *f = fopen("gsoap-request.xml", "wb");
    if (f) {
        fwrite(enc_io.out, 1, enc_io.out_len, f);
        fclose(f);
    }
    if (encode_response(enc, &enc_io, &resp))
        fail(enc, "encode_response");
    printf("check encode_response bytes=%zu (rmm wrote %zu)\n", enc_io.out_len, resp_io.in_len);
    f = fopen("gsoap-response.xml", "wb");
    if (f) {
        fwrite(enc_io.out, 1, enc_io.out_len, f);
        fclose(f);
    }
    fflush(stdout);

    double *samples = malloc(sizeof(double) * (size_t)runs);
    for (int step = 0; step < N_STEPS; step++) {
        for (int run = -1; run < runs; run++) { /* run -1 warms up */
            struct __ns1__EchoOrder r;
            struct _ns1__EchoOrderResponse p;
            double t0 = now_ns();
            for (long i = 0; i < iterations; i++) {
                int err = 0;
                switch (step) {
                case 0:
                    err = decode_request(dec_req, &dec_req_io, &r);
                    soap_end(dec_req);
                    break;
                case 1:
                    err = decode_response(dec_resp, &dec_resp_io, &p);
                    soap_end(dec_resp);
                    break;
                case 2:
                    err = encode_request(enc, &enc_io, req.ns1__EchoOrder);
                    soap_end(enc);
                    break;
                case 3:
                    err = encode_response(enc, &enc_io, &resp);
                    soap_end(enc);
                    break;
                }
                if (err) {
                    fprintf(stderr, "driver: %s failed in the loop (%d)\n", STEP[step], err);
                    return 1;
                }
            }
            double t = (now_ns() - t0) / (double)iterations;
            if (run >= 0)
                samples[run] = t;
        }
        printf("%s %.1f\n", STEP[step], median(samples, runs));
        fflush(stdout);
    }

    soap_free(dec_req);
    soap_free(dec_resp);
    soap_free(enc);
    soap_end(req_data);
    soap_free(req_data);
    soap_end(resp_data);
    soap_free(resp_data);
    free(samples);
    return 0;
}
