<?php

declare(strict_types=1);

namespace StableCashier\Tests;

/** PHP's built-in server running a router script on a free port, for the tests. */
final class Server
{
    public string $url;
    public string $dir;
    private $proc;

    public function __construct(string $router, array $env = [], int $port = 0)
    {
        $this->dir = sys_get_temp_dir() . '/stablecashier-' . bin2hex(random_bytes(6));
        mkdir($this->dir);
        if ($port === 0) {
            $s = stream_socket_server('tcp://127.0.0.1:0');
            $port = (int) substr(strrchr(stream_socket_get_name($s, false), ':'), 1);
            fclose($s);
        }
        $env = array_merge(getenv(), $env, ['TEST_SERVER_DIR' => $this->dir]);
        $this->proc = proc_open([PHP_BINARY, '-S', "127.0.0.1:$port", $router], [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes, null, $env);
        $this->url = "http://127.0.0.1:$port";
        for ($i = 0; $i < 200; $i++) {
            $c = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.1);
            if ($c) {
                fclose($c);
                return;
            }
            usleep(20000);
        }
        throw new \RuntimeException("the test server on $port did not start");
    }

    public function stop(): void
    {
        proc_terminate($this->proc);
        proc_close($this->proc);
        array_map('unlink', glob($this->dir . '/*') ?: []);
        @rmdir($this->dir);
    }
}
