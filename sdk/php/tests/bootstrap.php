<?php
require __DIR__ . '/../autoload.php';
require __DIR__ . '/Server.php';
