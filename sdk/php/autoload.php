<?php
// Loads the StableCashier classes without Composer: require this file.
spl_autoload_register(static function (string $class): void {
    if (strncmp($class, 'StableCashier\\', 14) === 0) {
        $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, 14)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
